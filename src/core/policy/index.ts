export { FlowPolicy, type WeightEntry } from './flow-policy';
export { DEFAULT_FLOW_POLICY_OPTIONS, obsFeatureDim, resolveFlowPolicyOptions, type FlowPolicyOptions, type ObsEncoderKind, type ValueOn } from './options';
export { expectedParameterShapes, isCriticParameter, type ParamShapes } from './param-shapes';
export { encodeObs, obsBatchSize, type PolicyObs } from './obs-encoder';
export { boundedStd, validateNoiseBounds, type NoiseHeadBounds } from './noise-head';
export { MinMaxNormalizer, type MinMaxStats } from './normalizer';
export { stopGradient } from './stop-gradient';
