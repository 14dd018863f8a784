#!/usr/bin/env python3
"""The windows of one JVM (perflab bench --json --windows N): how much each per-call figure moves from one window to
the next. For each metric: its mean, the SD of its log over the windows, and the RMS of the log-ratio of neighbouring
windows over sqrt(2) (one window's own spread, drift between distant windows left out). If CPU per call moved with
the work done per call, system calls and context switches per call would move with it; if they hold while CPU per
call moves, the same work cost more or less CPU time from one window to the next.
usage: window-noise.py FILE.json ..."""
import json, math, statistics, sys

METRICS = ['cpu_us_per_req', 'user_cpu_us_per_req', 'sys_cpu_us_per_req', 'syscalls_per_req',
           'ctx_switches_per_req', 'reqs_per_sec']

for name in sys.argv[1:]:
    windows = json.load(open(name))['windows']
    print('%s: %d windows, %s' % (name, len(windows), windows[0]['environment']['workload']))
    for k in METRICS:
        logs = [math.log(w[k]) for w in windows]
        steps = [b - a for a, b in zip(logs, logs[1:])]
        rms = math.sqrt(sum(d * d for d in steps) / len(steps)) / math.sqrt(2)
        print('  %-22s mean %10.2f  SD of log %5.2f %%  neighbours %5.2f %%  range %.2f-%.2f' % (
            k, statistics.mean(w[k] for w in windows), 100 * statistics.stdev(logs), 100 * rms,
            min(w[k] for w in windows), max(w[k] for w in windows)))
    cpu = [math.log(w['cpu_us_per_req']) for w in windows]
    busy = [math.log(w['cpu_us_per_req'] * w['reqs_per_sec'] / 1e6) for w in windows]
    print('  CPUs busy (CPU per call x calls/s): mean %.2f, SD of log %.2f %%; r(log CPU per call, log calls/s) = %.2f'
          % (statistics.mean(math.exp(b) for b in busy), 100 * statistics.stdev(busy),
             statistics.correlation(cpu, [math.log(w['reqs_per_sec']) for w in windows])))
