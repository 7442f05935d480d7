"""Training return at the end of each run folder given: CleanRL's (scalars.csv, one row per
episode) or Flowtune's (metrics.jsonl, one row per iteration of 2048 steps). Prints the mean over
the last 100 episodes (openrlbenchmark's table measure; for Flowtune's runs each iteration counts
as 2048 / its mean episode length episodes) and the mean over the last 20 iterations, then the
mean and population std over the runs, as openrlbenchmark reports them."""
import json
import os
import statistics
import sys

ITERATION = 2048


def cleanrl(folder):
    episodes = []
    for line in open(os.path.join(folder, 'scalars.csv')):
        tag, step, value = line.rsplit(',', 2)
        if tag == 'charts/episodic_return':
            episodes.append((int(step), float(value)))
    by_iteration = {}
    for step, value in episodes:
        by_iteration.setdefault((step - 1) // ITERATION, []).append(value)
    last20 = [statistics.mean(by_iteration[key]) for key in sorted(by_iteration)[-20:]]
    return episodes[-1][0], statistics.mean(value for _, value in episodes[-100:]), statistics.mean(last20)


def flowtune(folder):
    rows = [json.loads(line) for line in open(os.path.join(folder, 'metrics.jsonl'))]
    rows = [row for row in rows if 'charts/episode_return' in row]
    needed, total, weight = 100.0, 0.0, 0.0
    for row in reversed(rows):
        count = min(needed, ITERATION / row['charts/episode_length'])
        total, weight, needed = total + count * row['charts/episode_return'], weight + count, needed - count
        if needed <= 0:
            break
    last20 = statistics.mean(row['charts/episode_return'] for row in rows[-20:])
    return rows[-1]['progress/env_steps'], total / weight, last20


results = []
for folder in sys.argv[1:]:
    steps, last100, last20 = (cleanrl if os.path.exists(os.path.join(folder, 'scalars.csv')) else flowtune)(folder)
    results.append((last100, last20))
    print(f'{folder}: {steps} env steps, last 100 episodes {last100:.0f}, last 20 iterations {last20:.0f}')
if len(results) > 1:
    for name, values in (('last 100 episodes', [r[0] for r in results]), ('last 20 iterations', [r[1] for r in results])):
        print(f'{name}: {statistics.mean(values):.0f} ± {statistics.pstdev(values):.0f} over {len(values)} runs')
