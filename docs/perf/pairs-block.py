#!/usr/bin/env python3
"""The first FIRST pairs of experiment BLOCK (blocks of SIZE consecutive pairs) of a calibrate --out file, pairs and
ordinals renumbered from 0, as one experiment of FIRST pairs for `perflab calibrate --from OUT --experiments 1
--pairs FIRST`.
usage: pairs-block.py IN.json SIZE BLOCK FIRST OUT.json"""
import json, sys

name, size, block, first, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
d = json.load(open(name))
start = block * size
kept = []
for t in d['trials']:
    if start <= t['pair']['index'] < start + first:
        t = dict(t, ordinal=len(kept))
        t['pair'] = dict(t['pair'], index=t['pair']['index'] - start)
        kept.append(t)
json.dump({'experiment': dict(d['experiment'], pairs=first), 'trials': kept}, open(out, 'w'), indent=1)
