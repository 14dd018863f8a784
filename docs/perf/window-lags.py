#!/usr/bin/env python3
"""How the windows of a paired experiment file (perflab calibrate/ab --out) differ with the time between them: for
every two windows of one pair, k slots apart in run order (k = 1 for neighbours), the log-ratio of their CPU per
call, grouped by k and by whether both windows are the same JVM's ("same") or one JVM's against the other's
("cross"). In an A/A both JVMs run the same code: equal spreads for same and cross say that which JVM ran a window
adds nothing; a spread that grows with k says the host drifts between windows.
usage: window-lags.py FILE.json ..."""
import collections, json, math, sys

for name in sys.argv[1:]:
    pairs = collections.defaultdict(list)
    for t in json.load(open(name))['trials']:
        m = t['metrics']
        if t['status'] != 'OK' or not t.get('pair') or 'cpu_us_per_req' not in m:
            continue
        pairs[t['pair']['index']].append((t['start'], t['pid'], math.log(m['cpu_us_per_req'])))
    spread = collections.defaultdict(list)
    for windows in pairs.values():
        windows.sort()
        for i in range(len(windows)):
            for j in range(i + 1, len(windows)):
                spread[(j - i, windows[i][1] == windows[j][1])].append(windows[j][2] - windows[i][2])
    print(name)
    for (k, same), d in sorted(spread.items()):
        if len(d) < 8:
            continue
        rms = math.sqrt(sum(x * x for x in d) / len(d))
        print('  %2d slots apart, %-5s n = %4d  RMS of log-ratio %5.2f %%' % (k, 'same' if same else 'cross', len(d),
                                                                            100 * rms))
