import { CheckpointError } from '../../src/core/errors';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../src/cli/node-backend';
import { validateConfig, type NoiseConfig, type RunConfig } from '../../src/core/config';
import { withLiveSettings, type LiveSettings } from '../../src/core/run/live-settings';
import type { Run } from '../../src/core/run/run';
import type { CheckpointFiles, TrainerEvent } from '../../src/protocol/trainer-api';
import { flowtuneFile, PICK_CUBE_PROPRIO, PICK_CUBE_STATE, smallConfig } from '../../src/core/run/fixtures/test-checkpoints';
import { TrainingSession } from './training-session';

describe('TrainingSession.loadCheckpoint', () => {
  let pointFile: CheckpointFiles;
  let stateFile: CheckpointFiles;
  beforeAll(async () => {
    await useNodeBackend('cpu');
    const pointConfig = smallConfig(['env.obs_type=pointcloud', 'env.num_points=24', 'policy.velocity_net=ditx', 'policy.ditx_dim=16', 'policy.ditx_depth=1', 'policy.ditx_heads=2']);
    pointFile = await flowtuneFile('pc.flowtune', pointConfig, 24 * 3 + PICK_CUBE_PROPRIO);
    stateFile = await flowtuneFile('state.flowtune', smallConfig(), PICK_CUBE_STATE);
  });

  it('with no run, takes a point-cloud file\'s observation kind and point count, and back to state', () => {
    const session = new TrainingSession(smallConfig(['env.num_points=512']));
    const events: TrainerEvent[] = [];
    session.setListener((event) => events.push(event));
    const info = session.models.loadCheckpoint(pointFile);
    expect(info.architecture).toBe('point cloud 24 pts · DiT-X 16×1, 2 heads · H 4 · K 3 · act 4');
    expect(session.config.env.obs_type).toBe('pointcloud');
    expect(session.config.env.num_points).toBe(24);
    expect(session.config.policy.velocity_net).toBe('ditx');
    expect(events.map((event) => event.type)).toEqual(['config', 'model']);
    session.models.loadCheckpoint(stateFile);
    expect(session.config.env.obs_type).toBe('state');
    expect(session.models.selected?.info.source).toBe('state.flowtune');
  });

  it('a file of another observation kind is opened in full and becomes the next run\'s model', () => {
    const session = new TrainingSession(smallConfig());
    session.models.loadCheckpoint(stateFile);
    session.models.loadCheckpoint(pointFile);
    expect(session.models.selected?.info.source).toBe('pc.flowtune');
    expect(session.config.env.obs_type).toBe('pointcloud');
    expect(session.config.env.num_points).toBe(24);
    // A corrupt file changes nothing.
    const before = JSON.stringify(session.config);
    expect(() => session.models.loadCheckpoint({ kind: 'flowtune', name: 'junk.flowtune', bytes: new Uint8Array(64).fill(7) })).toThrow(CheckpointError);
    expect(JSON.stringify(session.config)).toBe(before);
    expect(session.models.selected?.info.source).toBe('pc.flowtune');
  });
});

/** The part of a live Run that a live change reaches: it validates its own config in force, as Run.setLive does. */
class LiveRunStub {
  readonly received: NoiseConfig[] = [];
  readonly floors: number[] = [];
  constructor(public config: RunConfig) {}
  setLive(settings: LiveSettings): RunConfig {
    const next = validateConfig(withLiveSettings(this.config, settings));
    this.received.push({ ...next.noise });
    this.floors.push(next.dppo.min_sampling_std);
    this.config = next;
    return next;
  }
}

/** A session hosting the stub as its live run. */
class HostingSession extends TrainingSession {
  constructor(config: RunConfig, readonly live: LiveRunStub) {
    super(config);
  }

  override get run(): Run | undefined {
    return this.live as unknown as Run;
  }
}

describe('TrainingSession.setNoise', () => {
  it('with no run, refuses a level the sampler cannot use and changes nothing', () => {
    const session = new TrainingSession(smallConfig(['noise.method=sde', 'noise.level=0.5']));
    const events: TrainerEvent[] = [];
    session.setListener((event) => events.push(event));
    const before = session.config;
    expect(() => session.models.setNoise({ level: 0 })).toThrow(expect.objectContaining({ name: 'ConfigError', field: 'noise.level' }));
    expect(() => session.models.setNoise({ decay: 'linear', level_min: 0 })).toThrow(/^noise\.level_min \(0\) must be a number in \(0, 5\]/);
    expect(session.config).toBe(before);
    expect(events).toEqual([]);
  });

  it('with no run, replaces only the noise section and announces the config once', () => {
    const session = new TrainingSession(smallConfig(['noise.method=sde', 'noise.level=0.5']));
    const events: TrainerEvent[] = [];
    session.setListener((event) => events.push(event));
    const { policy, ppo } = session.config;
    const returned = session.models.setNoise({ level: 0.7 });
    expect(returned).toBe(session.config);
    expect(session.config.noise.level).toBe(0.7);
    expect(session.config.policy).toBe(policy);
    expect(session.config.ppo).toBe(ppo);
    expect(events).toEqual([{ type: 'config', config: session.config }]);
  });

  it('with a live run on the same config, hands the run the whole noise section, and a value it refuses changes neither', () => {
    const config = smallConfig(['noise.method=sde', 'noise.level=0.5']);
    const live = new LiveRunStub(config);
    const session = new HostingSession(config, live);
    session.models.setNoise({ level: 0.8 });
    expect(live.received).toEqual([{ ...config.noise, level: 0.8 }]);
    expect(session.config.noise).toEqual(live.config.noise);
    const [sessionBefore, runBefore] = [session.config, live.config];
    expect(() => session.models.setNoise({ level: 0 })).toThrow(expect.objectContaining({ name: 'ConfigError', field: 'noise.level' }));
    expect([session.config, live.config]).toEqual([sessionBefore, runBefore]);
    expect(live.received).toHaveLength(1);
  });

  it('with a live run whose next config was edited, checks the noise against that config too, before the run is touched', () => {
    const live = new LiveRunStub(smallConfig(['noise.method=sde', 'policy.denoise_steps=3']));
    // The next run samples with K = 1, where cps has no stochastic step; the live run's K = 3 would take it.
    const session = new HostingSession(smallConfig(['noise.method=sde', 'policy.denoise_steps=1']), live);
    expect(() => session.models.setNoise({ method: 'cps', level: 0.5 })).toThrow(expect.objectContaining({ name: 'ConfigError', field: 'policy.denoise_steps' }));
    expect(live.received).toEqual([]);
    expect(session.config.noise.method).toBe('sde');
  });
});

describe('TrainingSession.setLive', () => {
  it('hands a live diffusion run DPPO\'s std floor for its next rollout, and refuses a floor out of range', () => {
    const config = smallConfig(['policy.kind=diffusion', 'policy.denoise_steps=4', 'dppo.ft_denoising_steps=2', 'dppo.min_sampling_std=0.1']);
    const live = new LiveRunStub(config);
    const session = new HostingSession(config, live);
    const events: TrainerEvent[] = [];
    session.setListener((event) => events.push(event));
    session.models.setLive({ dppo: { min_sampling_std: 0.25 } });
    expect(live.floors).toEqual([0.25]);
    expect(live.config.dppo.min_sampling_std).toBe(0.25);
    expect(session.config.dppo.min_sampling_std).toBe(0.25);
    // Only the floor moved: the rest of dppo.* and the noise section are the run's own.
    expect({ ...live.config.dppo, min_sampling_std: 0.1 }).toEqual(config.dppo);
    expect(live.config.noise).toEqual(config.noise);
    expect(events).toEqual([{ type: 'config', config: session.config }]);
    const before = [session.config, live.config];
    expect(() => session.models.setLive({ dppo: { min_sampling_std: -1 } })).toThrow(expect.objectContaining({ name: 'ConfigError', field: 'dppo.min_sampling_std' }));
    expect([session.config, live.config]).toEqual(before);
  });

  it('moves only live fields, whatever else a settings object carries across the channel', () => {
    const config = smallConfig(['policy.kind=diffusion', 'policy.denoise_steps=4', 'dppo.ft_denoising_steps=2']);
    const session = new TrainingSession(config);
    session.models.setLive({ dppo: { min_sampling_std: 0.2, ft_denoising_steps: 4 } as LiveSettings['dppo'] });
    expect(session.config.dppo).toEqual({ ...config.dppo, min_sampling_std: 0.2 });
  });

  it('a Config-tab edit of the floor reaches the live run too, as noise fields do', () => {
    const config = smallConfig(['policy.kind=diffusion', 'policy.denoise_steps=4', 'dppo.ft_denoising_steps=2']);
    const live = new LiveRunStub(config);
    const session = new HostingSession(config, live);
    session.models.setConfig({ ...config, dppo: { ...config.dppo, min_sampling_std: 0.05 } });
    expect(live.config.dppo.min_sampling_std).toBe(0.05);
  });
});
