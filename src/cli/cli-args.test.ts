import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI_NO_PPO_HOST, CLI_TRAIN_HOST, PRESETS, defaultConfig } from '../core/config';
import { CheckpointError, ConfigError } from '../core/errors';
import {
  HelpRequest, PRESET_ARG, UsageError, configWarningLines, describeCliError, formatUsage, parseCliArgs, parseCliArgsWithOverrides, parseRunArgs,
} from './cli-args';

const SPEC = {
  task: { kind: 'enum', values: ['reach', 'lift', 'pick-cube'], default: 'pick-cube', doc: 'task name' },
  episodes: { kind: 'int', min: 1, max: 1000, default: 10, doc: 'episodes to record' },
  seed: { kind: 'int', default: 0, doc: 'base seed' },
  noise: { kind: 'number', min: 0, max: 1, default: 0.1, doc: 'expert noise' },
  out: { kind: 'string', required: true, doc: 'output file' },
  video: { kind: 'bool', default: false, doc: 'record video' },
  note: { kind: 'string', doc: 'free text' },
} as const;

function usageMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
}

describe('parseCliArgs', () => {
  it('parses every kind and fills defaults', () => {
    const args = parseCliArgs(['task=lift', 'episodes=25', 'noise=0.05', 'out=demos.bin', 'video=true', 'seed=-3'], SPEC);
    expect(args).toEqual({ task: 'lift', episodes: 25, seed: -3, noise: 0.05, out: 'demos.bin', video: true, note: undefined });
    // Inferred types: enum values are a literal union, numbers are numbers.
    const task: 'reach' | 'lift' | 'pick-cube' = args.task;
    const episodes: number = args.episodes;
    const note: string | undefined = args.note;
    expect([task, episodes, note]).toEqual(['lift', 25, undefined]);
  });

  it('accepts --key=value, a bare --, and bool spellings', () => {
    const args = parseCliArgs(['--', '--out=x', 'video=0'], SPEC);
    expect(args.out).toBe('x');
    expect(args.video).toBe(false);
    expect(parseCliArgs(['out=x', 'video=yes'], SPEC).video).toBe(true);
  });

  it('keeps everything after the first = in the value', () => {
    expect(parseCliArgs(['out=a=b.bin'], SPEC).out).toBe('a=b.bin');
  });

  it('rejects an unknown key, naming it and the allowed keys', () => {
    const message = usageMessage(() => parseCliArgs(['episods=3', 'out=x'], SPEC));
    expect(message).toBe("unknown key 'episods'; did you mean episodes? allowed keys: task, episodes, seed, noise, out, video, note");
    expect(usageMessage(() => parseCliArgs(['zzz=3', 'out=x'], SPEC)))
      .toBe("unknown key 'zzz'; allowed keys: task, episodes, seed, noise, out, video, note");
  });

  it('rejects a bad enum value with the allowed values', () => {
    expect(usageMessage(() => parseCliArgs(['task=pick', 'out=x'], SPEC)))
      .toBe("task must be one of reach, lift, pick-cube (got 'pick')");
  });

  it('rejects non-integers, out-of-range and non-numeric values', () => {
    expect(usageMessage(() => parseCliArgs(['episodes=2.5', 'out=x'], SPEC)))
      .toBe("episodes must be an integer in [1, 1000] (got '2.5')");
    expect(usageMessage(() => parseCliArgs(['episodes=0', 'out=x'], SPEC))).toContain('in [1, 1000]');
    expect(usageMessage(() => parseCliArgs(['noise=abc', 'out=x'], SPEC)))
      .toBe("noise must be a number in [0, 1] (got 'abc')");
    expect(usageMessage(() => parseCliArgs(['seed=', 'out=x'], SPEC))).toBe("seed must be an integer (got '')");
    expect(usageMessage(() => parseCliArgs(['noise=Infinity', 'out=x'], SPEC))).toContain('noise must be');
  });

  it('refuses hex, binary and octal numbers and values a 64-bit float cannot hold, saying why', () => {
    expect(usageMessage(() => parseCliArgs(['episodes=0x10', 'out=x'], SPEC)))
      .toBe("episodes must be an integer in [1, 1000] (got '0x10', which is not written in decimal digits)");
    expect(usageMessage(() => parseCliArgs(['episodes=0b11', 'out=x'], SPEC)))
      .toBe("episodes must be an integer in [1, 1000] (got '0b11', which is not written in decimal digits)");
    expect(usageMessage(() => parseCliArgs(['noise=1e-400', 'out=x'], SPEC)))
      .toBe("noise must be a number in [0, 1] (got '1e-400', which is too small for a 64-bit float and would read as 0)");
    expect(usageMessage(() => parseCliArgs(['seed=1e400', 'out=x'], SPEC)))
      .toBe("seed must be an integer (got '1e400', which is too large for a 64-bit float)");
    expect(parseCliArgs(['episodes=1e2', 'noise=0e-9', 'out=x'], SPEC)).toMatchObject({ episodes: 100, noise: 0 });
  });

  it('rejects bad bools, empty strings, missing required keys, repeats and malformed arguments', () => {
    expect(usageMessage(() => parseCliArgs(['video=maybe', 'out=x'], SPEC))).toBe("video must be one of true, false (got 'maybe')");
    expect(usageMessage(() => parseCliArgs(['out='], SPEC))).toBe('out must not be empty');
    expect(usageMessage(() => parseCliArgs(['task=lift'], SPEC))).toContain("missing required key 'out'");
    expect(usageMessage(() => parseCliArgs(['out=a', 'out=b'], SPEC))).toBe('out is given more than once; give it once');
    const malformed = usageMessage(() => parseCliArgs(['lift'], SPEC));
    expect(malformed).toContain("malformed argument 'lift'");
    expect(malformed).toContain('task, episodes');
    expect(usageMessage(() => parseCliArgs(['=3'], SPEC))).toContain("malformed argument '=3'");
  });

  it('collects config keys as overrides in order and still rejects other unknown keys', () => {
    const isConfigKey = (key: string) => key === 'num_envs' || key.startsWith('ppo.');
    const { args, overrides } = parseCliArgsWithOverrides(
      ['task=lift', 'out=runs/a', 'ppo.clip_low=0.1', 'num_envs=16', 'ppo.epochs=2'], SPEC, { isConfigKey });
    expect(args.task).toBe('lift');
    expect(overrides).toEqual(['ppo.clip_low=0.1', 'num_envs=16', 'ppo.epochs=2']);
    const message = usageMessage(() => parseCliArgsWithOverrides(['out=x', 'nope=1'], SPEC, { isConfigKey }));
    expect(message).toContain("unknown key 'nope'");
    expect(message).toContain('or any config key');
  });

  it('throws HelpRequest with one line per key', () => {
    let help: unknown;
    try {
      parseCliArgs(['--help'], SPEC, { program: 'npm run demos --' });
    } catch (error) {
      help = error;
    }
    expect(help).toBeInstanceOf(HelpRequest);
    const text = (help as Error).message;
    expect(text.split('\n')).toHaveLength(1 + Object.keys(SPEC).length);
    expect(text).toContain('reach|lift|pick-cube (default pick-cube): task name');
    expect(formatUsage(SPEC)).toContain('out=…');
  });
});

describe('parseRunArgs', () => {
  const TRAIN_SPEC = {
    task: { kind: 'enum', values: ['reach', 'lift', 'pick-cube'], default: 'pick-cube', doc: 'task' },
    ckpt: { kind: 'string', required: true, doc: 'checkpoint' },
    out: { kind: 'string', default: 'runs/latest', doc: 'run folder' },
  } as const;

  it('applies config keys, dotted or top-level, and passes an explicit shared key on to the config', () => {
    const { args, config, overrides } = parseRunArgs(['task=lift', 'ckpt=x.flowtune', 'ppo.clip_low=0.1', 'num_envs=8'], TRAIN_SPEC);
    expect(args).toEqual({ task: 'lift', ckpt: 'x.flowtune', out: 'runs/latest' });
    expect(overrides).toEqual(['task=lift', 'ppo.clip_low=0.1', 'num_envs=8']);
    expect([config.task, config.ppo.clip_low, config.num_envs]).toEqual(['lift', 0.1, 8]);
    const untouched = parseRunArgs(['ckpt=x'], TRAIN_SPEC).config;
    expect(untouched).toEqual(defaultConfig());
  });

  it('suggests config keys for typos and rejects bad config values and combinations', () => {
    expect(usageMessage(() => parseRunArgs(['ckpt=x', 'ppo.clip_lwo=0.1'], TRAIN_SPEC)))
      .toMatch(/^unknown key 'ppo\.clip_lwo'; did you mean ppo\.clip_low.*allowed keys: task, ckpt, out, or any config key/);
    expect(() => parseRunArgs(['ckpt=x', 'noise.method=flow'], TRAIN_SPEC)).toThrow(ConfigError);
    expect(() => parseRunArgs(['ckpt=x', 'policy.n_action_steps=10'], TRAIN_SPEC))
      .toThrow('policy.n_action_steps (10) must be ≤ policy.horizon (8)');
  });

  it('with validate: false checks each value but leaves cross-field rules to the caller, for a checkpoint that decides horizon', () => {
    const { config } = parseRunArgs(['ckpt=x', 'policy.n_action_steps=12'], TRAIN_SPEC, { validate: false });
    expect(config.policy.n_action_steps).toBe(12);
    expect(() => parseRunArgs(['ckpt=x', 'policy.n_action_steps=0'], TRAIN_SPEC, { validate: false })).toThrow(ConfigError);
  });

  it('lists the config keys in help', () => {
    expect(() => parseRunArgs(['help'], TRAIN_SPEC)).toThrow(HelpRequest);
    expect(() => parseRunArgs(['help'], TRAIN_SPEC)).toThrow(/config keys \(key=value\):\n {2}task: a name such as reach, lift, pick-cube, stack-cube, peg-insertion/);
  });
});

describe('parseRunArgs with preset=NAME', () => {
  const SPEC_WITH_PRESET = {
    task: { kind: 'enum', values: ['reach', 'lift', 'pick-cube'], default: 'pick-cube', doc: 'task' },
    ckpt: { kind: 'string', required: true, doc: 'checkpoint' },
    preset: PRESET_ARG,
  } as const;
  const BASELINE = PRESETS['reinflow-baseline'].overrides;

  it('applies the preset to the defaults first and the command line after, whatever the argument order', () => {
    const before = parseRunArgs(['preset=reinflow-baseline', 'ckpt=x', 'policy.denoise_steps=2', 'num_envs=8'], SPEC_WITH_PRESET);
    const after = parseRunArgs(['policy.denoise_steps=2', 'ckpt=x', 'num_envs=8', 'preset=reinflow-baseline'], SPEC_WITH_PRESET);
    for (const parsed of [before, after]) {
      // The preset sets K = 8 and 16 envs; the command line's values win; the preset's others hold.
      expect([parsed.config.policy.denoise_steps, parsed.config.num_envs, parsed.config.noise.method, parsed.config.ppo.entropy_coef]).toEqual([2, 8, 'noise', 0.01]);
      expect(parsed.preset).toBe('reinflow-baseline');
      expect(parsed.presetOverrides).toEqual(BASELINE);
      expect(parsed.userOverrides).toEqual(['policy.denoise_steps=2', 'num_envs=8']);
      expect(parsed.overrides).toEqual([...BASELINE, 'policy.denoise_steps=2', 'num_envs=8']);
    }
    expect(before.config).toEqual(after.config);
    expect(before.args.preset).toBe('reinflow-baseline');
  });

  it('without preset= is the command line alone', () => {
    const parsed = parseRunArgs(['ckpt=x', 'seed=4'], SPEC_WITH_PRESET);
    expect([parsed.preset, parsed.presetOverrides, parsed.overrides]).toEqual([undefined, [], ['seed=4']]);
    expect(parsed.config).toEqual({ ...defaultConfig(), seed: 4 });
  });

  it('rejects an unknown preset with one exit-2 line that lists the allowed names', () => {
    let thrown: unknown;
    try {
      parseRunArgs(['ckpt=x', 'preset=fast'], SPEC_WITH_PRESET);
    } catch (error) {
      thrown = error;
    }
    const failure = describeCliError(thrown);
    expect(failure.exitCode).toBe(2);
    expect(failure.text).toMatch(/^error: unknown preset 'fast'; allowed presets: default, tiny, gaussian-ppo, locomotion-reinflow, locomotion-flowsde, reinflow-baseline, .*reinflow-epochs-8, reinflow-pickcube-rgb, dppo, dppo-manipulation$/);
    expect(failure.text).not.toContain('\n');
  });

  it('lists preset and every preset with its doc in help', () => {
    let help = '';
    try {
      parseRunArgs(['help'], SPEC_WITH_PRESET);
    } catch (error) {
      help = (error as Error).message;
    }
    expect(help).toMatch(/^usage: .* \[preset=…\]/);
    expect(help).toMatch(/\n {2}preset +string: named overrides applied to the defaults before/);
    expect(help).toContain('\npresets (preset=NAME):\n');
    expect(help).toMatch(/\n {2}tiny +Tiny end-to-end run/);
    expect(help).toContain('reinflow-epochs-8');
    // A command without preset in its spec does not list them.
    let plain = '';
    try {
      parseRunArgs(['help'], { ckpt: { kind: 'string', doc: 'checkpoint' } });
    } catch (error) {
      plain = (error as Error).message;
    }
    expect(plain).toContain('config keys (key=value):');
    expect(plain).not.toContain('presets (preset=NAME)');
  });
});

describe('configWarningLines', () => {
  it('warns about the command line\'s own keys that do nothing, one line each', () => {
    const { config, userOverrides } = parseRunArgs(
      ['ckpt=x', 'ppo.entropy_coef=0.01', 'video.episodes=1', 'env.num_points=64'],
      { ckpt: { kind: 'string', doc: 'checkpoint' } },
    );
    const lines = configWarningLines(config, userOverrides, CLI_TRAIN_HOST);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('warning: ppo.entropy_coef=0.01 does nothing with noise.method=sde, whose std is fixed, so the entropy term has no gradient; only noise.method=noise has a learned std');
    expect(lines[1]).toMatch(/^warning: video\.episodes=1 does nothing on the command line/);
    expect(lines[2]).toMatch(/^warning: env\.num_points=64 does nothing with env\.obs_type=state/);
    // Without PPO (pretrain, eval) the entropy bonus is not theirs to warn about.
    expect(configWarningLines(config, userOverrides, CLI_NO_PPO_HOST)).toEqual(lines.slice(1));
  });

  it('does not warn about keys a preset set', () => {
    const parsed = parseRunArgs(['ckpt=x', 'preset=tiny'], { ckpt: { kind: 'string', doc: 'checkpoint' }, preset: PRESET_ARG });
    expect(parsed.config.env.num_points).toBe(64);
    expect(configWarningLines(parsed.config, parsed.userOverrides, CLI_TRAIN_HOST)).toEqual([]);
  });
});

describe('describeCliError', () => {
  it('maps usage and config errors to 2 and others to 1, one line each', () => {
    expect(describeCliError(new UsageError('task', 'bad task'))).toEqual({ exitCode: 2, text: 'error: bad task', stream: 'stderr' });
    expect(describeCliError(new ConfigError('ppo.epochs', 'ppo.epochs must be ≥ 1')).exitCode).toBe(2);
    expect(describeCliError(new CheckpointError('checkpoint header is truncated')))
      .toEqual({ exitCode: 1, text: 'error: checkpoint header is truncated', stream: 'stderr' });
    expect(describeCliError(new Error('first\nsecond')).text).toBe('error: first');
    expect(describeCliError('plain string').text).toBe('error: plain string');
  });

  it('adds the stack only in debug mode', () => {
    const error = new Error('boom');
    expect(describeCliError(error).text).not.toContain('\n');
    expect(describeCliError(error, true).text).toContain('at ');
  });

  it('sends help to stdout with status 0', () => {
    expect(describeCliError(new HelpRequest('usage: x'))).toEqual({ exitCode: 0, text: 'usage: x', stream: 'stdout' });
  });
});

describe('runCli in a real process', () => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const repoRoot = path.resolve(here, '../..');
  const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');

  it('exits 2 on a usage error, 1 on a checkpoint error, 0 on success, without stacks', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cli-args-'));
    try {
      const script = path.join(dir, 'main.ts');
      writeFileSync(script, [
        `import { runCli, parseCliArgs } from ${JSON.stringify(path.join(here, 'cli-args'))};`,
        `import { CheckpointError } from ${JSON.stringify(path.join(repoRoot, 'src/core/errors'))};`,
        `runCli(async () => {`,
        `  const args = parseCliArgs(process.argv.slice(2), { mode: { kind: 'enum', values: ['ok', 'ckpt'], required: true, doc: 'what to do' } });`,
        `  if (args.mode === 'ckpt') throw new CheckpointError('checkpoint tensor w0 has shape [3] but the architecture needs [4]');`,
        `  console.log('done');`,
        `});`,
      ].join('\n'));
      const run = (...args: string[]) => spawnSync(tsx, [script, ...args], { encoding: 'utf8', env: { ...process.env, FLOWTUNE_DEBUG: '' } });
      const usage = run('mode=bad');
      expect(usage.status).toBe(2);
      expect(usage.stderr.trim()).toBe("error: mode must be one of ok, ckpt (got 'bad')");
      const checkpoint = run('mode=ckpt');
      expect(checkpoint.status).toBe(1);
      expect(checkpoint.stderr.trim()).toBe('error: checkpoint tensor w0 has shape [3] but the architecture needs [4]');
      const ok = run('mode=ok');
      expect(ok.status).toBe(0);
      expect(ok.stdout.trim()).toBe('done');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
