/**
 * Where the studio's "record demos" form starts (DESIGN.md §12, journey 7): 50 episodes of the
 * scripted expert with action noise 0.3, episode e reset with seed + e, as
 * `npm run demos -- episodes=50 noise=0.3 seed=0` records them.
 */
export const RECORD_DEMOS_DEFAULTS = { episodes: 50, noise: 0.3, seed: 0 } as const;
