#!/usr/bin/env python3
"""Per metric of paired experiment files (perflab ab/calibrate --out): the per-pair means of log(with/without) over
the pair's windows, their standard deviation (between pairs) and the pooled within-pair standard deviation of one
window's log-ratio. Optional --pairs A-B keeps only those pair indices. Optional --mde N,N… then gives, at the spread
the files share (their SDs of pair means of CPU per call pooled as the root of their mean square), the MDE of a paired
t-test of N pairs with 80 % power at two-sided alpha 0.05, (t(0.975, N-1) + t(0.8, N-1)) * SD / sqrt(N), and the
fewest pairs that reach 1.5 %.
usage: variance-components.py [--pairs 0-2] [--mde 40,8] FILE.json..."""
import json, math, statistics as st, sys
from collections import defaultdict

args = sys.argv[1:]
keep = None
if args[:1] == ['--pairs']:
    lo, hi = map(int, args[1].split('-'))
    keep = range(lo, hi + 1)
    args = args[2:]
sizes = []
if args[:1] == ['--mde']:
    sizes = [int(n) for n in args[1].split(',')]
    args = args[2:]
cpu_sds = []
for name in args:
    trials = [t for t in json.load(open(name))['trials'] if t['status'] == 'OK' and t.get('pair')]
    print(name)
    present = set().union(*(t['metrics'].keys() for t in trials))
    for metric in [m for m in ['cpu_us_per_req', 'user_cpu_us_per_req', 'sys_cpu_us_per_req', 'ctx_switches_per_req',
                               'reqs_per_sec', 'host_probe_ns', 'cpu_us_per_req_adj', 'user_cpu_us_per_req_adj',
                               'sys_cpu_us_per_req_adj', 'reqs_per_sec_adj'] if m in present]:
        windows = defaultdict(dict)
        for t in trials:
            p = t['pair']
            if keep is None or p['index'] in keep:
                windows[(p['index'], p['window'])][t['variant']] = t['metrics'][metric]
        pairs = defaultdict(list)
        for (index, _), sides in windows.items():
            if 'with' in sides and 'without' in sides:
                pairs[index].append(math.log(sides['with'] / sides['without']))
        means = [st.mean(v) for v in pairs.values()]
        dof = sum(len(v) - 1 for v in pairs.values())
        within = math.sqrt(sum((x - st.mean(v)) ** 2 for v in pairs.values() for x in v) / dof)
        print(f"  {metric:24s} pairs {len(pairs):3d}  mean {100 * st.mean(means):+6.2f} %  sd of pair means "
              f"{100 * st.stdev(means):5.2f} %  sd of a window within its pair {100 * within:5.2f} %")
        if metric == 'cpu_us_per_req':
            cpu_sds.append(st.stdev(means))
if sizes:
    from scipy.stats import t as student
    sd = math.sqrt(sum(s * s for s in cpu_sds) / len(cpu_sds))
    mde = lambda n: 100 * (student.ppf(0.975, n - 1) + student.ppf(0.8, n - 1)) * sd / math.sqrt(n)
    print(f"cpu_us_per_req, the {len(cpu_sds)} files' sd of pair means pooled: {100 * sd:.2f} %")
    for n in sizes:
        print(f"  {n:3d} pairs: MDE {mde(n):.2f} %")
    print(f"  1.5 % needs {next(n for n in range(3, 10000) if mde(n) <= 1.5)} pairs")
