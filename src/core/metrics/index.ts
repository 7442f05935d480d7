/** Metric names, smoothing, downsampling, series, seed bands and CSV/JSONL (DESIGN.md §9, §10). */
export * from './metric-keys';
export * from './smoothing';
export * from './downsample';
export * from './serialize';
export * from './series';
export * from './progress-line';
export * from './steps-to-threshold';
export * from './seed-band';
