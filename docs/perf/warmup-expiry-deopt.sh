#!/bin/sh
# Compiled code thrown away after the first seconds of load, one JVM at a time with -XX:+PrintCompilation: N JVMs of
# each engine jar (BASE, SEC as in warmup-expiry.sh), alternately, 30 one-second windows from a zero warmup; then per
# JVM the C2 (tier 4) methods made not entrant more than 6 s after the first engine method was compiled (≈ the first
# call), and the JIT threads' CPU and user CPU per call in blocks of four windows (warmup-expiry-deopt.txt).
#
#   BASE=base.jar SEC=new.jar docs/perf/warmup-expiry-deopt.sh [N]
set -eu
N=${1:-3}
FLAGS="-Xms512m -Xmx512m -XX:+AlwaysPreTouch -XX:+UseSerialGC -Xbatch -XX:-UseDynamicNumberOfCompilerThreads"
i=1
while [ "$i" -le "$N" ]; do
  for v in base sec; do
    if [ "$v" = base ]; then jar=$BASE; else jar=$SEC; fi
    # shellcheck disable=SC2086
    java $FLAGS -XX:+PrintCompilation -jar "$jar" bench --json --windows 30 --run-seconds 1 --warmup-seconds 0 \
        > "warmup-expiry-deopt-$v-$i.out"
  done
  i=$((i + 1))
done
python3 - <<'PY'
import glob, json, re
for v in ['base', 'sec']:
    for f in sorted(glob.glob("warmup-expiry-deopt-%s-*.out" % v)):
        lines = open(f).read().splitlines()
        w = json.loads(next(l for l in lines if l.startswith('{')))['windows']
        t0, late = None, []
        for l in lines:
            m = re.match(r'\s*(\d+)\s+\d+\s+[%sbn! ]*\s(\d)\s+(\S+)', l)
            if not m:
                continue
            t = int(m.group(1))
            if t0 is None and 'io.perflab.rpc.' in l:
                t0 = t
            if t0 is not None and 'made not entrant' in l and m.group(2) == '4' and t - t0 > 6000:
                late.append('%.1f %s' % ((t - t0) / 1000, m.group(3).split('::')[-1]))
        jit = [float(x['environment'].get('jit_cpu_ms_in_window', 0)) for x in w]
        user = [x['user_cpu_us_per_req'] for x in w]
        print(f, 'tier-4 code made not entrant after 6 s of load:', len(late))
        print('   ', ', '.join(late))
        print('    JIT ms/s', ' '.join('%5.1f' % (sum(jit[i:i + 4]) / 4) for i in range(0, 28, 4)),
              '| user CPU us/call', ' '.join('%5.1f' % (sum(user[i:i + 4]) / 4) for i in range(0, 28, 4)))
PY
