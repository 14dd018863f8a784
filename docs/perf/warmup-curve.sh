#!/bin/sh
# One JVM's figures from its first second under load: N JVMs, alternately with the default trial flags and with
# -XX:CompileThresholdScaling=0.1, each measuring 40 one-second windows from a zero warmup (unpinned, alone on the
# guest); then per JVM, in blocks of four windows, the JIT compiler threads' CPU per second and user CPU and CPU per
# call (warmup-curve.txt).
#
#   docs/perf/warmup-curve.sh [JAR] [N]
set -eu
JAR=${1:-src/target/perflab.jar}
N=${2:-3}
FLAGS="-Xms512m -Xmx512m -XX:+AlwaysPreTouch -XX:+UseSerialGC -Xbatch -XX:-UseDynamicNumberOfCompilerThreads"
i=1
while [ "$i" -le "$N" ]; do
    # shellcheck disable=SC2086
    java $FLAGS -jar "$JAR" bench --json --windows 40 --run-seconds 1 --warmup-seconds 0 > "warmup-curve-base-$i.json"
    # shellcheck disable=SC2086
    java $FLAGS -XX:CompileThresholdScaling=0.1 -jar "$JAR" bench --json --windows 40 --run-seconds 1 \
        --warmup-seconds 0 > "warmup-curve-cts-$i.json"
    i=$((i + 1))
done
python3 - <<'PY'
import glob, json, statistics as st
for name in ['base', 'cts']:
    runs = [json.load(open(f))['windows'] for f in sorted(glob.glob('warmup-curve-%s-*.json' % name))]
    print(name, len(runs), 'JVMs: per block of four 1 s windows, each JVM: JIT ms/s | user CPU us/call | CPU us/call')
    for lo in range(0, 40, 4):
        block = [w[lo:lo + 4] for w in runs]
        jit = [sum(float(x['environment'].get('jit_cpu_ms_in_window', 0)) for x in b) / 4 for b in block]
        user = [st.mean(x['user_cpu_us_per_req'] for x in b) for b in block]
        cpu = [st.mean(x['cpu_us_per_req'] for x in b) for b in block]
        print('  s%2d-%2d jit %s | user %s | cpu %s' % (lo, lo + 3, ' '.join('%5.1f' % x for x in jit),
              ' '.join('%5.1f' % x for x in user), ' '.join('%5.1f' % x for x in cpu)))
PY
