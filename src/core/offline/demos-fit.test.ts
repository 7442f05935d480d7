import { describe, expect, it } from 'vitest';
import type { DemoMetadata } from '../envs/demo-format';
import { resolveFlowPolicyOptions } from '../policy/options';
import { demosFitProblem } from './demos-fit';

const policy = resolveFlowPolicyOptions({ obsDim: 29, horizon: 8, actionDim: 4 });
const metadata = { task: 'reach', obs_mode: 'state', obs_dim: 29, action_dim: 4 } as DemoMetadata;

describe('demosFitProblem', () => {
  it('accepts demos of the same task, observation and action sizes', () => {
    expect(demosFitProblem(metadata, 'reach', policy)).toBeUndefined();
  });

  it('names the first mismatch in one sentence', () => {
    expect(demosFitProblem({ ...metadata, task: 'lift' }, 'reach', policy)).toBe("the demos are for task 'lift' but the checkpoint is for task 'reach'");
    expect(demosFitProblem({ ...metadata, obs_mode: 'pointcloud' }, 'reach', policy)).toBe("the demos hold pointcloud observations but the checkpoint's policy reads state observations");
    expect(demosFitProblem({ ...metadata, obs_dim: 32 }, 'reach', policy)).toBe("the demos' observations hold 32 values but the checkpoint's policy reads 29 per frame");
    expect(demosFitProblem({ ...metadata, action_dim: 8 }, 'reach', policy)).toBe("the demos' actions have 8 dims but the checkpoint's policy outputs 4");
  });
});
