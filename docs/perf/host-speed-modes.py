#!/usr/bin/env python3
# The windows of a paired experiment file (ab --out) per stack: CPU per call against the host probe, r in logs,
# the fit over all windows, and how many windows were slow (CPU per call over the cut, default 45 us) with the
# probe in them against the others.
# usage: host-speed-modes.py FILE.json [CUT_US]
import json, math, sys, statistics as st
import numpy as np
d = json.load(open(sys.argv[1]))
rows = [(t['environment'].get('stack', t['variant']), t['metrics']) for t in d['trials'] if t['status'] == 'OK' and t.get('pair')]
allp = np.log([m['host_probe_ns'] for _, m in rows]); allc = np.log([m['cpu_us_per_req'] for _, m in rows])
b, a = np.polyfit(allp, allc, 1)
print(f"all {len(rows)} windows: log CPU per call = {a:.3f} + {b:.3f} log host_probe_ns, r = {np.corrcoef(allp, allc)[0,1]:.3f}")
cut = float(sys.argv[2]) if len(sys.argv) > 2 else 45.0
for stack in sorted(set(s for s, _ in rows)):
    ms = [m for s, m in rows if s == stack]
    cpu = np.array([m['cpu_us_per_req'] for m in ms]); probe = np.array([m['host_probe_ns'] for m in ms])
    adj = np.array([m['cpu_us_per_req_adj'] for m in ms]); rps = np.array([m['reqs_per_sec'] for m in ms])
    slow = cpu > cut
    r = np.corrcoef(np.log(probe), np.log(cpu))[0, 1]
    print(f"{stack:8s} windows {len(ms):3d}  CPU/call {cpu.min():.1f}-{cpu.max():.1f} us (CV {100*cpu.std(ddof=1)/cpu.mean():.1f} %), "
          f"adjusted CV {100*adj.std(ddof=1)/adj.mean():.1f} %, r(log probe, log CPU) {r:.2f}")
    print(f"         slow windows (CPU/call > {cut:g} us): {slow.sum()} of {len(ms)}; host probe in them {probe[slow].mean():.0f} ns "
          f"vs {probe[~slow].mean():.0f} ns in the others; rps {rps[slow].mean():.0f} vs {rps[~slow].mean():.0f}")
