/** How many calls to time: few, since the choice runs each time a model is selected. */
export interface TimingPlan {
  /** Untimed calls first (the first calls compile shaders and allocate). */
  warmup: number;
  /** Timed calls at most. */
  repeats: number;
  /** Stop timing once this many milliseconds went by; at least one call is always timed. */
  budgetMs: number;
}

/** Mean seconds per timed call of `body` under `plan`. */
export async function timeCalls(body: () => Promise<void>, plan: TimingPlan, clock: () => number = () => performance.now()): Promise<number> {
  for (let call = 0; call < plan.warmup; call++) await body();
  const start = clock();
  let calls = 0;
  do {
    await body();
    calls++;
  } while (calls < plan.repeats && clock() - start < plan.budgetMs);
  return (clock() - start) / 1000 / calls;
}
