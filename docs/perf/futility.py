#!/usr/bin/env python3
"""Sequential experiments with a futility stop, judged on stored pairs (no trial run).

The stored pairs of a campaign, in run order, are cut into consecutive experiments as a queue of them would have run:
each looks after every pair from the 2nd to at most N, stops when every target metric is settled, and the next
starts with the pair after. A target is settled when its paired t statistic crosses the O'Brien-Fleming-type
boundary of the look (the default's rule: nominal levels from PerfLab's GroupSequential, t quantiles at the same
level), or, with a smallest change of interest d, when the conditional power to find a change of +-d by the last
look falls below gamma (stochastic curtailment, Lan, Simon & Halperin 1982; Jennison & Turnbull 2000, ch. 10):
with the pairs' SD s so far, drift theta = log(1+d) sqrt(N) / s, B = Z sqrt(t), CP = max over +-theta of
P(|B + theta (1-t) + sqrt(1-t) e| >= c_N). Futility stops only remove chances to reject, so alpha is kept.
Seconds per pair: the campaigns' wall time over their pairs. BOUNDS_DIR/obf-N.txt holds the nominal two-sided
levels of the looks at 2..N pairs (futility-bounds.sh writes them).
usage: futility.py BOUNDS_DIR N D_PERCENT GAMMA aa|ke FILES..."""
import json, math, sys
from collections import defaultdict
from scipy import stats

bounds_dir, N, d, gamma, kind, files = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), \
    sys.argv[5], sys.argv[6:]
nominal = [float(x) for x in open(f"{bounds_dir}/obf-{N}.txt").read().strip().splitlines()[-1].split()]
assert len(nominal) == N - 1, len(nominal)
metrics = ['user_cpu_us_per_req', 'sys_cpu_us_per_req', 'cpu_us_per_req', 'ctx_switches_per_req'] \
    if kind == 'aa' else ['cpu_us_per_req']

pairs = []
for name in files:
    data = json.load(open(name))
    by_pair = defaultdict(list)
    for t in data['trials']:
        by_pair[t['pair']['index']].append(t)
    for p in sorted(by_pair):
        trials = [t for t in by_pair[p] if t['status'] == 'OK']
        windows = defaultdict(dict)
        for t in trials:
            windows[t['pair']['window']][t['variant']] = t['metrics']
        logs = {}
        for m in metrics:
            r = [math.log(w['with'][m] / w['without'][m]) for w in windows.values()
                 if 'with' in w and 'without' in w and w['with'].get(m, 0) > 0 and w['without'].get(m, 0) > 0]
            if r:
                logs[m] = sum(r) / len(r)
        if len(logs) == len(metrics):
            pairs.append(logs)
from datetime import datetime
def wall(name):
    data = json.load(open(name))
    a = min(datetime.fromisoformat(t['start'][:26]) for t in data['trials'])
    b = max(datetime.fromisoformat(t['end'][:26]) for t in data['trials'])
    return (b - a).total_seconds(), 1 + max(t['pair']['index'] for t in data['trials'])
walls = [wall(f) for f in files]
per_pair = sum(w for w, _ in walls) / sum(n for _, n in walls)

c_final = stats.norm.isf(nominal[-1] / 2)
delta = math.log1p(d / 100)

def look(values, n):
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    t = mean / (sd / math.sqrt(n))
    bound = stats.t.isf(nominal[n - 2] / 2, n - 1)
    if abs(t) >= bound:
        return 'significant', mean, t
    if d > 0 and n < N:
        frac = n / N
        theta = delta * math.sqrt(N) / sd
        b = t * math.sqrt(frac)
        cp = 0.0
        for th in (theta, -theta):
            mu, s = b + th * (1 - frac), math.sqrt(1 - frac)
            cp = max(cp, stats.norm.sf((c_final - mu) / s) + stats.norm.cdf((-c_final - mu) / s))
        if cp < gamma:
            return 'futile', mean, t
    if n == N:
        return 'last', mean, t
    return None, mean, t

experiments, i = [], 0
while i + N <= len(pairs):
    settled, n = {}, 1
    while len(settled) < len(metrics) and n < N:
        n += 1
        for m in metrics:
            if m not in settled:
                outcome, mean, t = look([p[m] for p in pairs[i:i + n]], n)
                if outcome:
                    settled[m] = (outcome, mean, n)
    experiments.append((i, n, settled))
    i += n

print(f"{len(pairs)} pairs ({per_pair:.1f} s each) from {len(files)} files; N = {N}, smallest change {d} %, "
      f"gamma {gamma}; {len(experiments)} experiments (pairs left over: {len(pairs) - i})")
for m in metrics:
    sig = [e for e in experiments if e[2][m][0] == 'significant']
    pos = [e for e in sig if e[2][m][1] > 0]
    fut = [e for e in experiments if e[2][m][0] == 'futile']
    print(f"  {m:22s} significant {len(sig):2d} / {len(experiments)} (positive {len(pos)}), futile {len(fut)}, "
          f"settled at pair median {sorted(e[2][m][2] for e in experiments)[len(experiments) // 2]}")
used = sorted(e[1] for e in experiments)
print(f"  pairs used: median {used[len(used) // 2]}, mean {sum(used) / len(used):.1f} (range {used[0]}-{used[-1]}); "
      f"time: mean {sum(used) / len(used) * per_pair / 60:.1f} min per experiment")
for e in experiments:
    print("   ", e[0], e[1], {m: (o, round(100 * math.expm1(mean), 2), n) for m, (o, mean, n) in e[2].items()})
