/** Run config: schema, defaults, overrides, validation, derived sizes, diff, URL hash and presets (DESIGN.md §9, §10). */
export * from './run-config';
export * from './fields';
export * from './access';
export * from './field-values';
export * from './overrides';
export * from './derive';
export * from './validate';
export * from './numeric-range';
export * from './diff';
export * from './url-hash';
export * from './json';
export * from './presets';
export * from './help';
export * from './run-overrides';
export * from './warnings';
export * from './env-workers';
export * from './checkpoint-conflicts';
