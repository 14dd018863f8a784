#!/usr/bin/env python3
"""The first N pairs of a calibrate --out file, as a run of N pairs: what an experiment that stopped after its Nth
pair had measured, for `perflab calibrate --from OUT --experiments 1 --pairs N`.
usage: first-pairs.py N OUT.json IN.json"""
import json, sys

n, out, name = int(sys.argv[1]), sys.argv[2], sys.argv[3]
d = json.load(open(name))
trials = [t for t in d['trials'] if t.get('pair') and t['pair']['index'] < n]
json.dump({'experiment': dict(d['experiment'], pairs=n), 'trials': trials}, open(out, 'w'), indent=1)
print(f"the first {n} pairs of {name} ({len(trials)} windows) in {out}")
