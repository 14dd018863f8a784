#!/usr/bin/env python3
"""Compares arms of the warmup measurement (docs/perf/warmup-arms.sh): per arm, how a JVM's figures move across
the six window slots of its pair (each JVM against its own mean, so the host's level cancels), the spread of the
pairs' means and of a window within its pair, the warmup's length (median, quartiles) and whether it settled, the pair's setup time
and the JIT's CPU per window.

    docs/perf/warmup-arms.py warmup-arms-base-*.json -- warmup-arms-cts-*.json -- warmup-arms-cts8-*.json
"""
import json, math, statistics as st, sys, collections

from perfscripts import groups


METRICS = ['user_cpu_us_per_req', 'sys_cpu_us_per_req', 'cpu_us_per_req', 'ctx_switches_per_req']

def report(files):
    pairs = collections.defaultdict(list)
    for f in files:
        for t in json.load(open(f))['trials']:
            if t['status'] == 'OK':
                pairs[(f, t['pair']['index'])].append(t)
    slot = {m: collections.defaultdict(list) for m in METRICS}
    drift = {m: [] for m in METRICS}
    means = {m: [] for m in METRICS}
    within = {m: [] for m in METRICS}
    setup, warm, settled, jit = [], [], collections.Counter(), collections.defaultdict(list)
    for key, ts in pairs.items():
        ts.sort(key=lambda t: t['start'])
        if len(ts) != 6:
            continue
        for t in ts:
            e = t['environment']
            setup.append(float(e['pair_setup_seconds']))
            warm.append(float(e['warmup_seconds']))
            settled[e['warmup_settled']] += 1
            jit[t['pair']['window']].append(float(e.get('jit_cpu_ms_in_window', 0)))
        for m in METRICS:
            side = collections.defaultdict(list)
            for i, t in enumerate(ts):
                side[t['variant']].append((i, math.log(t['metrics'][m])))
            for v, xs in side.items():
                mu = st.mean(x for _, x in xs)
                for i, x in xs:
                    slot[m][i].append(x - mu)
                drift[m].append(xs[-1][1] - xs[0][1])
            a = {t['pair']['window']: math.log(t['metrics'][m]) for t in ts if t['variant'] == 'with'}
            b = {t['pair']['window']: math.log(t['metrics'][m]) for t in ts if t['variant'] == 'without'}
            r = [a[w] - b[w] for w in sorted(a) if w in b]
            means[m].append(st.mean(r))
            within[m].extend(x - st.mean(r) for x in r)
    n = len(means[METRICS[0]])
    q1, _, q3 = st.quantiles(warm, n=4)
    print('  pairs %d; warmup %.1f s median [%.1f, %.1f] (settled %d of %d); pair setup %.1f s median; '
          'JIT CPU ms per window %s'
          % (n, st.median(warm), q1, q3, settled['true'], sum(settled.values()), st.median(setup),
             ' '.join('w%d %.0f' % (w, st.median(v)) for w, v in sorted(jit.items()))))
    if drift['user_cpu_us_per_req'] and len(drift['user_cpu_us_per_req']) == len(drift['sys_cpu_us_per_req']):
        own = [u - y for u, y in zip(drift['user_cpu_us_per_req'], drift['sys_cpu_us_per_req'])]
        print('  user CPU\'s change from first to last window beyond system CPU\'s (what the host does to both '
              'cancels; the compiler\'s work shows): %+.2f %% (se %.2f)'
              % (100 * st.mean(own), 100 * st.stdev(own) / math.sqrt(len(own))))
    for m in METRICS:
        dof = 2 / 3  # each pair's three window ratios lose one degree of freedom to their mean
        w_sd = math.sqrt(sum(x * x for x in within[m]) / (len(within[m]) * dof)) if within[m] else float('nan')
        d = drift[m]
        print('  %-22s slots %s | last − first window of a JVM %+.2f %% (se %.2f) | pairs\' means sd %.2f %%, '
              'a window within its pair %.2f %%'
              % (m, ' '.join('%+.2f' % (100 * st.mean(slot[m][i])) for i in sorted(slot[m])),
                 100 * st.mean(d), 100 * st.stdev(d) / math.sqrt(len(d)), 100 * st.stdev(means[m]), 100 * w_sd))

for files in groups(sys.argv[1:]):
    print(' '.join(files))
    report(files)
