#!/usr/bin/env python3
"""Totals sequential-rejudge.txt: per size (8 or 20 pairs) the A/A false positives per target metric of the fixed-size
t-test and of the sequential rule over all the A/A runs, and the +2.5 % runs' detections, coverage and time.
usage: sequential-summary.py sequential-rejudge.txt"""
import re, sys
from collections import defaultdict

fixed, seq, time = defaultdict(lambda: [0, 0]), defaultdict(lambda: [0, 0]), defaultdict(list)
cover = defaultdict(lambda: [0, 0])
title, part = None, None
for line in open(sys.argv[1]):
    if line.startswith('== '):
        kind = 'A/A' if line.startswith('== A/A') else '+2.5 %'
        k = int(re.search(r'at most (\d+) pairs', line).group(1))
        part, title = 'fixed', (kind, k)
        continue
    if line.startswith('The robust check'):
        part = 'robust'
    elif line.startswith('The same experiments judged as sequential'):
        part = 'seq'
    m = re.match(r'(user_cpu_us_per_req|sys_cpu_us_per_req|cpu_us_per_req|ctx_switches_per_req) ', line)
    if m and part in ('fixed', 'seq'):
        metric = m.group(1)
        if title[0] == 'A/A':
            a, n = map(int, re.search(r' (\d+)/(\d+) ', line).groups())
            c = None
        else:
            counts = re.findall(r' (\d+)/(\d+) ', line)
            if len(counts) < 2:
                continue
            c, (a, n) = tuple(map(int, counts[0])), tuple(map(int, counts[1]))
        target = (fixed if part == 'fixed' else seq)[(title, metric)]
        target[0] += a
        target[1] += n
        if c and part == 'seq':
            cover[(title, metric)][0] += c[0]
            cover[(title, metric)][1] += c[1]
        elif c and part == 'fixed':
            cover[(title, metric, 'fixed')][0] += c[0]
            cover[(title, metric, 'fixed')][1] += c[1]
    m = re.match(r'stopped: .*time: (\d+) min (\d+) s per experiment .* against (\d+) min (\d+) s', line)
    if m:
        n = seq[(title, 'cpu_us_per_req')][1] - sum(x[1] for x in time[title])
        time[title].append((60 * int(m.group(1)) + int(m.group(2)), n, 60 * int(m.group(3)) + int(m.group(4))))
for (kind, k), metric in sorted({(key[0], key[1]) for key in seq}, key=lambda x: (x[0][0] != 'A/A', x[0][1], x[1])):
    f, s = fixed[((kind, k), metric)], seq[((kind, k), metric)]
    line = (f"{kind:7} {k:2} pairs  {metric:22} fixed {f[0]:2}/{f[1]:<3} ({f[0] / f[1]:.3f})   "
            f"sequential {s[0]:2}/{s[1]:<3} ({s[0] / s[1]:.3f})")
    if kind != 'A/A':
        cf, cs = cover[((kind, k), metric, 'fixed')], cover[((kind, k), metric)]
        line += f"   coverage fixed {cf[0]}/{cf[1]}, sequential {cs[0]}/{cs[1]}"
    print(line)
for title, runs in sorted(time.items(), key=lambda x: (x[0][0] != 'A/A', x[0][1])):
    n = sum(r[1] for r in runs)
    mean = sum(r[0] * r[1] for r in runs) / n
    full = sum(r[2] * r[1] for r in runs) / n
    print(f"{title[0]:7} {title[1]:2} pairs  time per experiment, mean over {n}: sequential {mean / 60:.1f} min, "
          f"all pairs {full / 60:.1f} min ({mean / full:.2f} ×)")
