#!/usr/bin/env python3
"""Joins calibrate --out files of one campaign, in the order given (their run order), into one run whose pairs
continue from file to file, so that aa-clean-blocks.py can cut it into experiments longer than one file's.
usage: pairs-concat.py OUT.json IN.json..."""
import json, sys

out, inputs = sys.argv[1], sys.argv[2:]
trials, plan, offset = [], None, 0
for name in inputs:
    d = json.load(open(name))
    plan = plan or d['experiment']
    pairs = 1 + max(t['pair']['index'] for t in d['trials'])
    for t in d['trials']:
        t = dict(t, ordinal=len(trials))
        t['pair'] = dict(t['pair'], index=offset + t['pair']['index'])
        trials.append(t)
    offset += pairs
json.dump({'experiment': dict(plan, pairs=offset), 'trials': trials}, open(out, 'w'), indent=1)
print(f"{offset} pairs from {len(inputs)} files in {out}")
