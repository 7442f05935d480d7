export { FLOW_METHODS, sdeSigmas, stepCoefficients, timeGrid, validateMethodLevel, type FlowMethod, type StepCoefficients, type TimeGrid } from './time-grid';
export { SAMPLE_MODES, buildDenoiseMask, validateSamplerOptions, type SampleMode, type SamplerOptions } from './sampling-options';
export { sampleActions, lastChainElement, type SampleResult } from './sampler';
export { chainLogProb, type ChainLogProbOptions, type ChainLogProbResult } from './chain-logprob';
export { LOGPROB_TYPES, reduceLogProb, validateLogProbSlice, type LogProbSlice, type LogProbType } from './logprob-reduce';
export { gaussianEntropy, gaussianLogProb, standardNormalLogProb } from './gaussian';
export { SCHEDULE_TYPES, scheduleValue, validateSchedule, type ScheduleSpec } from './noise-schedule';
export { DEFAULT_BC_LOSS_OPTIONS, bcFlowLoss, bcTrainStep, drawBcInputs, validateBcLossOptions, type BcDraw, type BcLossOptions, type BcLossResult } from './bc-loss';
export { runDenoiseChain, type ChainPass, type NextChainElement } from './denoise-chain';
