#!/bin/bash
# Is the kernel's tick split of user and system time biased? (issue 16)
#
# 1. Synthetic workloads with a known split, each on one thread of one JVM for SECONDS (60 for the study, on an
#    idle machine): a pure user-space spin, a no-op JNA call, getppid() through JNA, mixes of N spin steps and one
#    getppid(), Thread.yield(). Each is measured three ways over the same window: cpu-clock samples of that thread
#    on every CPU (what trials use), the tick split of getrusage(RUSAGE_THREAD), and what the workload implies by
#    difference of its costs (io.perflab.runner.metering.CpuSplitBias explains each). Then the overhead of
#    sampling: the spin alternating between windows with and without it.
# 2. The observation that prompted the question: a Python loop that calls os.getppid() every 50 iterations showed
#    12 % kernel time sampled by `perf record -e cpu-clock` at any rate, against 4-6 % by getrusage. The loop runs
#    three times, and reports its own getrusage split around the loop each time:
#      a) under `perf record -e cpu-clock -F 4999 -- python3 …`, as observed: per-thread sampling of the whole
#         process, start-up and exit included;
#      b) the same samples, only those time-stamped inside the loop (perf record -k CLOCK_MONOTONIC, the clock of
#         Python's time.monotonic());
#      c) CPU-wide sampling (`perf record -a`, as trials sample) of the loop's window and pid only.
#    The likely explanation (CpuSplitBias's javadoc): a) and getrusage do not cover the same window; start-up and
#    exit run mostly in the kernel. If so, b) and c) agree with getrusage within their sampling errors, a) does not.
#
# Usage: docs/perf/cpu-split-bias.sh JAR [SECONDS]   (default 60 s per workload; 2-3 s to check that it works)
# Needs perf events: root, CAP_PERFMON or kernel.perf_event_paranoid <= 0 (part 1), and perf and python3 (part 2).
set -eu
jar=${1:?usage: cpu-split-bias.sh JAR [SECONDS]}
seconds=${2:-60}

echo "== 1. synthetic workloads, $seconds s each"
java -Xms256m -Xmx256m -XX:-UseDynamicNumberOfCompilerThreads -cp "$jar" \
    -Dloader.main=io.perflab.runner.metering.CpuSplitBias org.springframework.boot.loader.launch.PropertiesLauncher \
    --seconds "$seconds"

echo
echo "== 2. the Python loop: os.getppid() every 50 iterations, $seconds s"
if ! command -v python3 > /dev/null || ! command -v perf > /dev/null; then
  echo "skipped: needs python3 and perf (Debian: apt-get install linux-perf)"
  exit 0
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cat > "$out/loop.py" <<PY
import os, resource, sys, time
seconds = float(sys.argv[1])
r0 = resource.getrusage(resource.RUSAGE_SELF)
t0 = time.monotonic()
while time.monotonic() - t0 < seconds:
    for j in range(20000):
        if j % 50 == 0:
            os.getppid()
t1 = time.monotonic()
r1 = resource.getrusage(resource.RUSAGE_SELF)
user, system = r1.ru_utime - r0.ru_utime, r1.ru_stime - r0.ru_stime
print("window %.6f %.6f pid %d" % (t0, t1, os.getpid()))
print("getrusage around the loop: %.2f %% kernel of %.2f s CPU (+-%.2f points from 250 Hz ticks)"
      % (100 * system / (user + system), user + system,
         100 * ((system / (user + system)) * (user / (user + system)) / ((user + system) * 250)) ** 0.5))
PY
# kernel share of perf script lines "pid time: ip" inside [from, to] (all when from is empty)
share() {
  awk -v from="$1" -v to="$2" -v pid="$3" '{ t = $2 + 0; ip = $3 }
      (pid == "" || $1 == pid) && (from == "" || (t >= from && t <= to)) { n++; if (ip ~ /^ffff/) k++ }
      END { if (n == 0) { print "no samples"; exit } p = k / n;
            printf "%.2f %% kernel of %d samples (+-%.2f points)\n", 100 * p, n, 100 * sqrt(p * (1 - p) / n) }'
}
perf record -q -e cpu-clock -F 4999 -k CLOCK_MONOTONIC -o "$out/task.data" -- \
    python3 "$out/loop.py" "$seconds" > "$out/task.txt" 2> /dev/null
read -r _ from to _ pid < <(grep '^window' "$out/task.txt")
perf script -i "$out/task.data" -F pid,time,ip 2> /dev/null | tr -d ':' > "$out/task.samples"
echo "a) perf record -e cpu-clock -- python3 (whole process): $(share "" "" "" < "$out/task.samples")"
grep '^getrusage' "$out/task.txt" | sed 's/^/   /'
echo "b) the same samples inside the loop only:              $(share "$from" "$to" "" < "$out/task.samples")"
python3 "$out/loop.py" "$seconds" > "$out/cpu.txt" &
loop=$!
perf record -q -a -e cpu-clock -F 4999 -k CLOCK_MONOTONIC -o "$out/cpu.data" -- sleep "$(awk -v s="$seconds" 'BEGIN { print s + 1 }')" \
    2> /dev/null
wait "$loop"
read -r _ from to _ pid < <(grep '^window' "$out/cpu.txt")
perf script -i "$out/cpu.data" -F pid,time,ip 2> /dev/null | tr -d ':' > "$out/cpu.samples"
echo "c) perf record -a, the loop's pid and window only:     $(share "$from" "$to" "$pid" < "$out/cpu.samples")"
grep '^getrusage' "$out/cpu.txt" | sed 's/^/   /'
