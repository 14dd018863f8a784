#!/usr/bin/env python3
"""Keeps the first N pairs of a calibrate --out file of a paired design, so that `perflab calibrate --from OUT
--experiments E --pairs K` (E x K = N) can judge its pairs again as experiments of another size: the pairs are
independent JVM pairs run one after another, so K consecutive pairs are what an experiment of K pairs would run.
usage: first-pairs.py N OUT.json IN.json"""
import json, sys

n, out, name = int(sys.argv[1]), sys.argv[2], sys.argv[3]
d = json.load(open(name))
trials = [t for t in d['trials'] if t['pair']['index'] < n]
json.dump({'experiment': dict(d['experiment'], pairs=n), 'trials': trials}, open(out, 'w'), indent=1)
print(f"{name}: the first {n} pairs ({len(trials)} windows) in {out}")
