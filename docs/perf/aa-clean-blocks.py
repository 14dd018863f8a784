#!/usr/bin/env python3
"""Keeps the experiments (blocks of K consecutive pairs) of calibrate --out files during which nothing else used the
CPU: every window's others_cpu_percent (CPU of other processes while the window ran, recorded by each trial) below
a limit (and whole: a block of fewer than K pairs is left out). Writes them, pairs and ordinals renumbered, as one file for `perflab calibrate --from OUT --experiments N --pairs K`.
usage: aa-clean-blocks.py K LIMIT_PERCENT OUT.json IN.json..."""
import json, sys
from collections import defaultdict

k, limit, out, inputs = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4:]
kept, plan, n = [], None, 0
for name in inputs:
    d = json.load(open(name))
    plan = plan or d['experiment']
    blocks = defaultdict(list)
    for t in d['trials']:
        blocks[t['pair']['index'] // k].append(t)
    for b in sorted(blocks):
        trials = blocks[b]
        others = [float(t['environment'].get('others_cpu_percent', 'inf')) for t in trials if t['status'] == 'OK']
        busy = max(others) if others else float('inf')
        whole = len({t['pair']['index'] for t in trials}) == k
        verdict = 'kept' if busy < limit and whole else 'left out' + ('' if whole else ' (fewer than K pairs)')
        print(f"{name} experiment {b}: {trials[0]['start'][11:19]}-{trials[-1]['end'][11:19]} UTC, "
              f"others' CPU at most {busy:.1f} %: {verdict}")
        if busy < limit and whole:
            for t in trials:
                t = dict(t)
                t['pair'] = dict(t['pair'], index=n * k + t['pair']['index'] % k)
                t['ordinal'] = len(kept)
                kept.append(t)
            n += 1
plan = dict(plan, pairs=n * k)
json.dump({'experiment': plan, 'trials': kept}, open(out, 'w'), indent=1)
print(f"{n} experiments of {k} pairs in {out}")
