import { describe, expect, it } from 'vitest';
import { getTask } from '../../core/envs/task-registry';
import { checkJobData, checkJobReturn, QueueDataError } from './redis-jobs';

const HASH = 'a'.repeat(64);
const good = () => ({
  sweepId: '0123456789ab', task: 'reach', taskHash: getTask('reach').hash, ckptKey: `flowtune:checkpoint:${HASH}`,
  run: { id: 'lr-high-s0', variant: 'lr:high', seed: 0, overrides: ['task=reach', 'seed=0', 'iterations=3', 'actor_lr=0.0001'] },
});

function refusal(data: unknown): string {
  try {
    checkJobData(data);
  } catch (error) {
    expect(error).toBeInstanceOf(QueueDataError);
    return (error as Error).message;
  }
  throw new Error('the job was accepted');
}

describe('a job from the sweep queue (untrusted)', () => {
  it('passes when every field is what a sweep queues, and gives the run config', () => {
    const { job, config } = checkJobData(good());
    expect(job.run.id).toBe('lr-high-s0');
    expect(config.actor_lr).toBe(1e-4);
    expect(config.iterations).toBe(3);
  });

  it('refuses run ids and keys that could name a path or forge a log line', () => {
    for (const id of ['..', '../victim', 'a/b', '/etc', 'x\nstart y', '']) expect(refusal({ ...good(), run: { ...good().run, id } })).toMatch(/^run\.id .* is not a plain run name/);
    expect(refusal({ ...good(), ckptKey: 'flowtune:checkpoint:../../x' })).toMatch(/^ckptKey .* is not flowtune:checkpoint:<sha256>/);
    expect(refusal({ ...good(), ckptKey: 'config' })).toMatch(/^ckptKey/);
    expect(refusal({ ...good(), sweepId: '../../x' })).toMatch(/^sweepId/);
  });

  it('refuses a task of another version than the worker\'s, and takes a job without a checkpoint as a fresh start', () => {
    const other = '0123456789abcdef';
    expect(refusal({ ...good(), taskHash: other })).toBe(`task 'reach' on this worker (hash ${getTask('reach').hash}) is another version than the sweep's (hash ${other}); give the worker the sweep's copy of the task`);
    expect(refusal({ ...good(), taskHash: '../x' })).toMatch(/^taskHash .* is not 16 hex digits/);
    expect(checkJobData({ ...good(), ckptKey: '' }).job.ckptKey).toBe('');
  });

  it('refuses overrides that are not config keys (out=, ckpt=, preset=), bad values, and another task', () => {
    const withOverride = (override: unknown) => ({ ...good(), run: { ...good().run, overrides: ['task=reach', override] } });
    expect(refusal(withOverride('out=/etc'))).toMatch(/^the run's config is refused: unknown config key 'out'/);
    expect(refusal(withOverride('ckpt=/etc/passwd'))).toMatch(/unknown config key 'ckpt'/);
    expect(refusal(withOverride('preset=tiny'))).toMatch(/unknown config key 'preset'/);
    // The command line's bounds: num_envs is at most 4096.
    expect(refusal(withOverride('num_envs=100000'))).toMatch(/^the run's config is refused: num_envs/);
    expect(refusal(withOverride('task=lift'))).toBe('run.overrides set task=lift, but the job is for reach');
    expect(refusal(withOverride(42))).toMatch(/^run\.overrides holds 42, not a key=value string/);
    expect(refusal({ ...good(), task: 'my-task' })).toBe("this worker has no task 'my-task'; start it with tasks=DIR, a folder holding that task's folder");
    expect(refusal(null)).toBe('the job data is not an object');
    // Within the command line's bounds (256), but more env threads than the worker has cores.
    expect(() => checkJobData(withOverride('env.workers=64'), { maxEnvWorkers: 2 })).toThrow('env.workers=64 is more than this worker\'s 2 cores');
    expect(checkJobData(withOverride('env.workers=2'), { maxEnvWorkers: 2 }).config.env.workers).toBe(2);
  });
});

describe('a worker\'s reply (untrusted)', () => {
  const files = { 'metrics.jsonl': '{}\n', 'config.json': '{}', 'checkpoints/final.flowtune': 'AAAA' };

  it('keeps the fixed file names only and reports every other name, never to be written', () => {
    const checked = checkJobReturn({ worker: 'node1:42', files: { ...files, '../../../x.txt': 'pwned', 'checkpoints/../../y': 'z', 'train.log': 'ok' } });
    expect([...checked.files.keys()].sort()).toEqual(['checkpoints/final.flowtune', 'config.json', 'metrics.jsonl', 'train.log']);
    expect(checked.refused).toHaveLength(2);
    expect(checked.refused[0]).toMatch(/^\.\.\/\.\.\/\.\.\/x\.txt \(not one of metrics\.jsonl, /);
  });

  it('refuses a reply without the files a run needs, or with non-text contents', () => {
    expect(() => checkJobReturn({ worker: 'w', files: { 'metrics.jsonl': '' } })).toThrow('the reply of worker w lacks config.json, checkpoints/final.flowtune');
    expect(checkJobReturn({ worker: 'w', files: { ...files, 'train.log': 5 } }).refused).toEqual(['train.log (not a string of at most 536870912 characters)']);
    expect(() => checkJobReturn('done')).toThrow(QueueDataError);
    // A worker name is printed only as bounded, printable text.
    expect(checkJobReturn({ worker: 'evil\n\u001b[2Jdone', files }).worker).toBe('evil??[2Jdone');
  });
});
