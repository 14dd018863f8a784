#!/usr/bin/env python3
"""How far apart the two JVMs' windows of each stored duet started: per file, the windows' |skew| (the start of
'with' minus the start of 'without' on the host's monotonic clock, as each trial records it), its median, 90th
percentile and largest, how many windows started more than 50 ms apart, and the window length the runner then
tolerated (the larger of 50 ms and a twentieth of the window) before measuring a window again.

    docs/perf/duet-skew.py docs/perf/duet-*.json docs/perf/precision-duet.json   # docs/perf/duet-skew.txt
"""
import json
import statistics
import sys

print(f"{'file':<24} {'windows':>7} {'median ms':>9} {'p90 ms':>7} {'max ms':>7} {'> 50 ms':>7} {'window s':>8}"
      f" {'tolerated ms':>12} {'retried':>7}")
for name in sys.argv[1:]:
    with open(name) as f:
        experiment = json.load(f)
    if experiment.get("experiment", {}).get("design") != "duet":
        continue
    skews = {}
    lengths = set()
    retried = 0
    for trial in experiment.get("trials", []):
        pair = trial.get("pair") or {}
        if pair.get("window") is None or pair.get("skewNanos") is None:
            continue
        key = (pair["index"], pair["window"])
        skews[key] = max(skews.get(key, 0), abs(pair["skewNanos"]))
        env = trial.get("environment", {})
        if "workload" in env:
            for part in env["workload"].split():
                if part.startswith("runSeconds="):
                    lengths.add(float(part.split("=")[1]))
        if env.get("window_attempts", "1") != "1" and trial.get("variant") == "with":
            retried += 1
    ms = sorted(v / 1e6 for v in skews.values())
    if not ms:
        continue
    window = max(lengths) if lengths else float("nan")
    tolerated = max(50.0, window * 1000 / 20)
    print(f"{name.split('/')[-1]:<24} {len(ms):>7} {statistics.median(ms):>9.2f} {ms[int(0.9 * len(ms))]:>7.1f}"
          f" {ms[-1]:>7.1f} {sum(v > 50 for v in ms):>7} {window:>8.1f} {tolerated:>12.0f} {retried:>7}")
