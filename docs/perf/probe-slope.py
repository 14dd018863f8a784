#!/usr/bin/env python3
"""Each experiment of a calibrate file analysed three ways for CPU per call: raw, divided by the host probe (the
product's _adj), and with the probe's slope fitted from the windows' deviations within their pairs and taken out of the
pairs' means (an ANCOVA-like adjustment; its t interval keeps n - 1 degrees of freedom, a little narrow). Prints
per way: how many intervals hold REF, how many say p < 0.05, the mean half-width and the bias.
usage: probe-slope.py AA.json [EFFECT.json REF]"""
import json, math, statistics as st, sys
from collections import defaultdict
from scipy import stats
def load(f):
    d = json.load(open(f))
    W = defaultdict(dict)
    for t in d['trials']:
        if t['status'] == 'OK' and t.get('pair') and 'host_probe_ns' in t['metrics']:
            p = t['pair']; W[(p['index'], p['window'])][t['variant']] = t['metrics']
    return W
def per_exp(W, m, pairs_per_exp=5):
    ex = defaultdict(lambda: defaultdict(list))
    for (i, w), s in W.items():
        if 'with' in s and 'without' in s:
            y = math.log(s['with'][m] / s['without'][m]); x = math.log(s['with']['host_probe_ns'] / s['without']['host_probe_ns'])
            ex[i // pairs_per_exp][i].append((x, y))
    return ex
def analyse(pairs, how):
    # pairs: dict pair -> list of (x, y)
    ys = [st.mean(y for x, y in v) for v in pairs.values()]; xs = [st.mean(x for x, y in v) for v in pairs.values()]
    n = len(ys)
    if how == 'raw': d = ys; df = n - 1
    elif how == 'ratio': d = [y - x for x, y in zip(xs, ys)]; df = n - 1
    elif how == 'within':  # slope from deviations within pairs, applied to pair means
        num = den = 0
        for v in pairs.values():
            mx = st.mean(x for x, y in v); my = st.mean(y for x, y in v)
            for x, y in v: num += (x - mx) * (y - my); den += (x - mx) ** 2
        b = num / den; d = [y - b * x for x, y in zip(xs, ys)]; df = n - 1
    mu = st.mean(d); se = st.stdev(d) / math.sqrt(n); t = stats.t.ppf(0.975, df)
    return mu, mu - t * se, mu + t * se
for f, ref in [(sys.argv[1], 0.0)] + ([(sys.argv[2], float(sys.argv[3]))] if len(sys.argv) > 3 else []):
    W = load(f)
    for m in ['cpu_us_per_req']:
        ex = per_exp(W, m)
        for how in ['raw', 'ratio', 'within']:
            res = [analyse(p, how) for p in ex.values()]
            cover = sum(lo <= ref <= hi for _, lo, hi in res); sig = sum(lo > 0 or hi < 0 for _, lo, hi in res)
            hw = st.mean((hi - lo) / 2 for _, lo, hi in res); bias = st.mean(mu for mu, _, _ in res) - ref
            print('%-28s %-7s exps %2d  holds ref %2d  p<.05 %2d  mean half-width %.2f pp  bias %+.2f pp' % (f.split('/')[-1], how, len(res), cover, sig, 100 * hw, 100 * bias))
