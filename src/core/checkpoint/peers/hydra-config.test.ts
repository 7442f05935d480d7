import { describe, expect, it } from 'vitest';
import { HydraConfig, isNumber, isString } from './hydra-config';

const TEXT = `
horizon_steps: 4
denoising_steps: 4
act_steps: \${horizon_steps}
name: run_ta\${horizon_steps}_td\${denoising_steps}
logdir: \${oc.env:REINFLOW_LOG_DIR}/gym
model:
  inference_steps: \${denoising_steps}
  cond_dim: \${eval:'\${obs_dim} * \${cond_steps}'}
  policy:
    activation_type: ReLU
loop_a: \${loop_b}
loop_b: \${loop_a}
`;

describe("a peer run's Hydra config, read as data", () => {
  const config = HydraConfig.parse(TEXT, 'config.yaml');

  it('resolves ${a.b} references, whole and inside text, to their values and types', () => {
    expect(config.get('act_steps')).toBe(4);
    expect(config.get('model.inference_steps')).toBe(4);
    expect(config.get('name')).toBe('run_ta4_td4');
    expect(config.get('model.policy.activation_type')).toBe('ReLU');
    expect(config.first(['model.network.activation_type', 'model.policy.activation_type'], isString)).toBe('ReLU');
  });

  it('never runs a resolver: eval, oc.env and cycles read as absent', () => {
    expect(config.get('logdir')).toBeUndefined();
    expect(config.get('model.cond_dim')).toBeUndefined();
    expect(config.get('loop_a')).toBeUndefined();
    expect(config.first(['model.cond_dim', 'horizon_steps'], isNumber)).toBe(4);
  });

  it('refuses a file that is not a YAML mapping, in one sentence', () => {
    expect(() => HydraConfig.parse('- a\n- b\n', 'list.yaml')).toThrow(/list.yaml does not hold a mapping at the top/);
    expect(() => HydraConfig.parse('a: [1, 2\n', 'broken.yaml')).toThrow(/broken.yaml is not YAML this build reads/);
  });
});
