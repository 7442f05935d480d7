export * from './rollout-layout';
export * from './rollout-signals';
export * from './gae';
export * from './monte-carlo';
export * from './n-step';
export * from './grpo';
export * from './normalize';
