import { describe, expect, it } from 'vitest';
import type { DemoMetadata } from '../envs/demo-format';
import { applyOverrides, defaultConfig } from '../config';
import { DemosError } from '../errors';
import { assertDemosFit, demosEnvProblem } from './demos-fit';

const metadata = { task: 'reach', obs_mode: 'state', obs_dim: 29, action_dim: 4 } as DemoMetadata;

describe('demosEnvProblem', () => {
  const reach = applyOverrides(defaultConfig(), ['task=reach']);
  const fitting = { ...metadata, control_mode: 'ee_delta_pos' } as DemoMetadata;

  it('accepts demos recorded for the env the config builds', () => {
    expect(demosEnvProblem(fitting, reach)).toBeUndefined();
  });

  it('names the first mismatch in one sentence', () => {
    expect(demosEnvProblem({ ...fitting, task: 'lift' }, reach)).toBe("the demos are for task 'lift' but the task is 'reach'");
    expect(demosEnvProblem({ ...fitting, obs_mode: 'pointcloud' }, reach)).toBe("the demos hold pointcloud observations but reach's env gives state observations (env.obs_type)");
    expect(demosEnvProblem({ ...fitting, obs_dim: 30 }, reach)).toBe("the demos' observations hold 30 values but the env's hold 29");
    expect(demosEnvProblem({ ...fitting, control_mode: 'joint_delta' }, reach)).toBe('the demos were recorded with control mode joint_delta but the env uses ee_delta_pos');
  });

  it("is the stage-2 check too: a checkpoint's config gives the env its policy reads and acts in", () => {
    // A point-cloud reach checkpoint of 64 points: its frame is 64·3 points plus the proprioception.
    const pointCloud = applyOverrides(defaultConfig(), ['task=reach', 'env.obs_type=pointcloud', 'env.num_points=64']);
    expect(demosEnvProblem(fitting, pointCloud)).toBe("the demos hold state observations but reach's env gives pointcloud observations (env.obs_type)");
    const cloudDemos = { ...fitting, obs_mode: 'pointcloud', obs_dim: 29 } as DemoMetadata;
    expect(demosEnvProblem(cloudDemos, pointCloud)).toMatch(/^the demos' observations hold 29 values but the env's hold \d+ \(64 points; env\.num_points\)$/);
  });
});

describe('assertDemosFit', () => {
  const reach = applyOverrides(defaultConfig(), ['task=reach']);
  const fitting = { ...metadata, control_mode: 'ee_delta_pos' } as DemoMetadata;

  it('passes fitting demos and refuses others with a DemosError naming their source', () => {
    expect(() => assertDemosFit(fitting, reach, "demos file 'a.demos'")).not.toThrow();
    const refuse = () => assertDemosFit({ ...fitting, action_dim: 8 }, reach, "demos file 'a.demos'");
    expect(refuse).toThrow("demos file 'a.demos' cannot be used: the demos' actions have 8 dims but the env's have 4");
    expect(refuse).toThrow(DemosError);
  });
});
