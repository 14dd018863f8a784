#!/usr/bin/env python3
"""What an injected serverWorkNanos cost, read two ways from paired experiment files (perflab calibrate/ab --out):
per pair the mean over its windows of with − without in user, system and total CPU per call (µs; the spin is user
time), with the standard error over the pairs; and, where the windows recorded it, the median and quartiles of the
with side's server_work_measured_nanos (what its calls that timed themselves measured).
usage: injected-user-cpu.py FILE.json ..."""
import collections, json, math, statistics as st, sys

for name in sys.argv[1:]:
    trials = [t for t in json.load(open(name))['trials'] if t['status'] == 'OK' and t.get('pair')]
    windows = collections.defaultdict(dict)
    for t in trials:
        windows[(t['pair']['index'], t['pair']['window'])][t['variant']] = t['metrics']
    pairs = collections.defaultdict(lambda: collections.defaultdict(list))
    for (index, _), sides in windows.items():
        if len(sides) == 2:
            for m in ('user_cpu_us_per_req', 'sys_cpu_us_per_req', 'cpu_us_per_req'):
                pairs[index][m].append(sides['with'][m] - sides['without'][m])
    print('%s (%d pairs)' % (name, len(pairs)))
    for m in ('user_cpu_us_per_req', 'sys_cpu_us_per_req', 'cpu_us_per_req'):
        means = [st.mean(p[m]) for p in pairs.values()]
        print('  %-20s with - without %+.3f µs per call, SE %.3f' % (m, st.mean(means),
                                                                    st.stdev(means) / math.sqrt(len(means))))
    measured = [float(t['environment']['server_work_measured_nanos']) for t in trials
                if t['variant'] == 'with' and 'server_work_measured_nanos' in t['environment']]
    if len(measured) >= 4:
        q = st.quantiles(measured, n=4)
        print('  server_work_measured_nanos: median %.0f ns, quartiles %.0f-%.0f, %d windows'
              % (st.median(measured), q[0], q[2], len(measured)))
