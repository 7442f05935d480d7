import { describe, expect, it } from 'vitest';
import { applyOverrides, defaultConfig } from '../../core/config';
import type { MetricRecord } from '../../core/metrics';
import type { RunDetails, RunListing } from '../../protocol/trainer-api';
import { resolveSelectedRuns, staleDetailIds } from './selected-runs';

function listing(id: string, updatedAt: number, current = false): RunListing {
  return { id, name: `name ${id}`, origin: 'studio', task: 'pick-cube', iterations: 2, envSteps: 128, createdAt: 1, updatedAt, current, finished: false };
}

const liveRecords: MetricRecord[] = [{ 'progress/env_steps': 64, 'charts/success_rate': 0.5 }];
const liveConfig = defaultConfig();
const storedConfig = applyOverrides(defaultConfig(), ['actor_lr=1e-4']);
const storedRecords: MetricRecord[] = [{ 'progress/env_steps': 10, 'charts/success_rate': 0.1 }];

describe('resolveSelectedRuns', () => {
  const runs = [listing('live', 9, true), listing('old', 5), listing('unfetched', 4)];
  const details: Record<string, RunDetails> = { old: { listing: listing('old', 5), config: storedConfig, records: storedRecords } };

  it('draws the current run from the live records and the others from fetched details, in selection order', () => {
    const resolved = resolveSelectedRuns({
      selected: ['old', 'live', 'unfetched', 'deleted'], hidden: ['old'], runs, details,
      colours: { old: '#111111', live: '#222222' }, live: { records: liveRecords, config: liveConfig },
    });
    expect(resolved.map((run) => run.id)).toEqual(['old', 'live', 'unfetched']);
    const [old, live, unfetched] = resolved;
    expect(old).toMatchObject({ name: 'name old', colour: '#111111', hidden: true, current: false });
    expect(old.records).toBe(storedRecords);
    expect(old.config).toBe(storedConfig);
    expect(live).toMatchObject({ hidden: false, current: true, colour: '#222222' });
    expect(live.records).toBe(liveRecords);
    expect(live.config).toBe(liveConfig);
    expect(unfetched.records).toBeUndefined();
    expect(unfetched.config).toBeUndefined();
  });
});

describe('staleDetailIds', () => {
  it('asks for selected non-current runs that are missing or changed since they were fetched', () => {
    const runs = [listing('live', 9, true), listing('same', 5), listing('changed', 8), listing('missing', 3)];
    const details: Record<string, RunDetails> = {
      same: { listing: listing('same', 5), config: storedConfig, records: [] },
      changed: { listing: listing('changed', 6), config: storedConfig, records: [] },
    };
    expect(staleDetailIds(['live', 'same', 'changed', 'missing', 'gone'], runs, details)).toEqual(['changed', 'missing']);
    expect(staleDetailIds([], runs, details)).toEqual([]);
  });
});
