#!/usr/bin/env python3
"""The minimum detectable effect (80 % power, two-sided alpha 0.05) of user CPU per request of a fresh-JVM
experiment of N + N trials, with the sampled split beside the tick split of the very same windows, from one A/A
`perflab ab --out` file whose trials sampled their split (docs/perf/aa-split.json): each such trial records its
sampled user CPU per request (user_cpu_us_per_req) and getrusage's tick split of the same window
(environment tick_user_cpu_us_per_req). The SD is pooled over the two sides (an A/A: same settings on both);
the MDE is PerfLab's (io.perflab.stats.Power): (t(0.975, 2N-2) + t(0.8, 2N-2)) * sd * sqrt(2/N), as % of the mean.
Also the median sampling error of one trial's user CPU per request (environment user_cpu_sampling_error_percent)
and the Welch p of the A/A itself for each reading.
Usage: split-mde.py FILE.json [N]   (N defaults to 40: the seeds' 40 + 40)"""
import json
import math
import sys


def t_cdf(t, df):
    # regularized incomplete beta through a continued fraction (Numerical Recipes' betacf), enough for df >= 2
    if t == 0:
        return 0.5
    x = df / (df + t * t)
    a, b = df / 2.0, 0.5
    bt = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x))
    def cf(a, b, x):
        qab, qap, qam = a + b, a + 1, a - 1
        c, d = 1.0, 1 - qab * x / qap
        d = 1 / d
        h = d
        for m in range(1, 300):
            m2 = 2 * m
            aa = m * (b - m) * x / ((qam + m2) * (a + m2))
            d = 1 / (1 + aa * d); c = 1 + aa / c; h *= d * c
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
            d = 1 / (1 + aa * d); c = 1 + aa / c; h *= d * c
        return h
    ib = bt * cf(a, b, x) / a if x < (a + 1) / (a + b + 2) else 1 - bt * cf(b, a, 1 - x) / b
    return 1 - 0.5 * ib if t > 0 else 0.5 * ib


def t_quantile(p, df):
    lo, hi = -50.0, 50.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def pooled(sides):
    means = [sum(v) / len(v) for v in sides]
    ss = sum(sum((x - m) ** 2 for x in v) for v, m in zip(sides, means))
    df = sum(len(v) for v in sides) - len(sides)
    grand = sum(sum(v) for v in sides) / sum(len(v) for v in sides)
    return grand, math.sqrt(ss / df)


def welch_p(a, b):
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    va = sum((x - ma) ** 2 for x in a) / (len(a) - 1)
    vb = sum((x - mb) ** 2 for x in b) / (len(b) - 1)
    se2 = va / len(a) + vb / len(b)
    t = (ma - mb) / math.sqrt(se2)
    df = se2 ** 2 / ((va / len(a)) ** 2 / (len(a) - 1) + (vb / len(b)) ** 2 / (len(b) - 1))
    return 2 * (1 - t_cdf(abs(t), df))


trials = [t for t in json.load(open(sys.argv[1]))["trials"] if t["status"] == "OK"
          and t["environment"].get("cpu_split_source") == "sampled"]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 40
readings = {
    "sampled split": lambda t: t["metrics"]["user_cpu_us_per_req"],
    "tick split of the same windows": lambda t: float(t["environment"]["tick_user_cpu_us_per_req"]),
}
print(f"{len(trials)} sampled trials; MDE of an experiment of {n} + {n} trials")
print(f"| user CPU per request | mean µs | CV (pooled sd / mean) | MDE {n} + {n} | A/A Welch p |")
print("|---|---|---|---|---|")
for name, read in readings.items():
    sides = [[read(t) for t in trials if t["variant"] == v] for v in ("without", "with")]
    mean, sd = pooled(sides)
    df = 2 * n - 2
    mde = 100 * (t_quantile(0.975, df) + t_quantile(0.8, df)) * sd * math.sqrt(2 / n) / mean
    print(f"| {name} | {mean:.3f} | {100 * sd / mean:.2f} % | {mde:.2f} % | {welch_p(*sides):.3f} |")
for key in ("user_cpu_sampling_error_percent", "sys_cpu_sampling_error_percent"):
    e = sorted(float(t["environment"][key]) for t in trials if key in t["environment"])
    if e:
        print(f"median {key} of one trial: {e[len(e) // 2]:.2f} % (range {e[0]:.2f}–{e[-1]:.2f} %, {len(e)} trials)")
