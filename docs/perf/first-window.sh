#!/bin/sh
# The first-window check: N trial JVMs, each pinned to one vCPU, warm up once and measure W windows back to back;
# prints every window's CPU per call and calls per second, and per JVM the first window against the mean of the
# others. Before the fix the first window measured about a quarter less CPU per call (issue 15).
#
#   docs/perf/first-window.sh [JAR] [RUNS] [WINDOWS] [RUN_SECONDS] [WARMUP]
#   docs/perf/first-window.sh src/target/perflab.jar 4 4 3 auto:15
set -eu
JAR=${1:-src/target/perflab.jar}
RUNS=${2:-4}
WINDOWS=${3:-4}
RUN_SECONDS=${4:-3}
WARMUP=${5:-auto:15}
CPU=${CPU:-1}
FLAGS="-Xms512m -Xmx512m -XX:+AlwaysPreTouch -XX:+UseSerialGC -Xbatch -XX:-UseDynamicNumberOfCompilerThreads"
OUT=$(mktemp -d)
i=1
while [ "$i" -le "$RUNS" ]; do
    # shellcheck disable=SC2086
    taskset -c "$CPU" java $FLAGS -jar "$JAR" bench --json --windows "$WINDOWS" --warmup-seconds "$WARMUP" \
        --run-seconds "$RUN_SECONDS" > "$OUT/run-$i.json"
    i=$((i + 1))
done
python3 - "$OUT" <<'PY'
import glob, json, statistics, sys
ratios, rates = [], []
for path in sorted(glob.glob(sys.argv[1] + "/run-*.json")):
    windows = json.load(open(path))["windows"]
    cpu = [w["cpu_us_per_req"] for w in windows]
    rps = [w["reqs_per_sec"] for w in windows]
    env = windows[0]["environment"]
    print("%s: CPU us/call %s | calls/s %s | warmup %s s settled=%s" % (path.split("/")[-1],
          " ".join("%.2f" % c for c in cpu), " ".join("%.0f" % r for r in rps),
          env.get("warmup_seconds"), env.get("warmup_settled")))
    ratios.append(cpu[0] / statistics.mean(cpu[1:]))
    rates.append(rps[0] / statistics.mean(rps[1:]))
print("first window / mean of the others, CPU per call: %s (mean %.3f)" % (
    " ".join("%.3f" % r for r in ratios), statistics.mean(ratios)))
print("first window / mean of the others, calls per second: %s (mean %.3f)" % (
    " ".join("%.3f" % r for r in rates), statistics.mean(rates)))
PY
