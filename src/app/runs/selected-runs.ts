/**
 * The runs chosen for the overlay, with the data each one is drawn from: the current run uses
 * the page's live records and config (so its curve moves while it trains), the others the details
 * fetched from the trainer worker.
 */
import type { RunConfig } from '../../core/config';
import type { MetricRecord } from '../../core/metrics';
import type { RunDetails, RunListing } from '../../protocol/trainer-api';
import type { OverlayRun } from '../charts/chart-data';

export interface SelectedRun extends OverlayRun {
  current: boolean;
  /** Undefined until the run's details arrive. */
  config?: RunConfig;
}

export interface CompareSources {
  selected: readonly string[];
  hidden: readonly string[];
  runs: readonly RunListing[];
  details: Readonly<Record<string, RunDetails>>;
  colours: Readonly<Record<string, string>>;
  live: { records: readonly MetricRecord[]; config: RunConfig };
}

/** The selected runs still listed, in selection order. */
export function resolveSelectedRuns({ selected, hidden, runs, details, colours, live }: CompareSources): SelectedRun[] {
  const listings = new Map(runs.map((run) => [run.id, run]));
  const resolved: SelectedRun[] = [];
  for (const id of selected) {
    const listing = listings.get(id);
    if (!listing) continue;
    const fetched = details[id];
    resolved.push({
      id,
      name: listing.name,
      colour: colours[id] ?? '#6b7280',
      hidden: hidden.includes(id),
      current: listing.current,
      // Older details stay drawn while newer ones are fetched.
      config: listing.current ? live.config : fetched?.config,
      records: listing.current ? live.records : fetched?.records,
    });
  }
  return resolved;
}

/** Selected, non-current runs whose details are missing or older than their listing's `updatedAt`. */
export function staleDetailIds(selected: readonly string[], runs: readonly RunListing[], details: Readonly<Record<string, RunDetails>>): string[] {
  const listings = new Map(runs.map((run) => [run.id, run]));
  return selected.filter((id) => {
    const listing = listings.get(id);
    if (!listing || listing.current) return false;
    return details[id]?.listing.updatedAt !== listing.updatedAt;
  });
}
