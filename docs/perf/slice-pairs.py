#!/usr/bin/env python3
"""Cuts an experiment file (ab/calibrate --out) into files of N consecutive pairs each, renumbered from 0, so that
each can be judged by `perflab compare FILE FILE` as one experiment of that size.

    docs/perf/slice-pairs.py 8 OUT_PREFIX aa-default-8.json      # OUT_PREFIX-0.json, OUT_PREFIX-1.json, ...
"""
import json, sys

size, prefix, source = int(sys.argv[1]), sys.argv[2], sys.argv[3]
d = json.load(open(source))
pairs = sorted({t['pair']['index'] for t in d['trials'] if t.get('pair')})
for k in range(len(pairs) // size):
    keep = {p: i for i, p in enumerate(pairs[k * size:(k + 1) * size])}
    trials = []
    for t in d['trials']:
        if t.get('pair') and t['pair']['index'] in keep:
            t = json.loads(json.dumps(t))
            t['pair']['index'] = keep[t['pair']['index']]
            trials.append(t)
    json.dump({'experiment': d['experiment'], 'trials': trials}, open('%s-%d.json' % (prefix, k), 'w'))
