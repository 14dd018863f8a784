#!/bin/sh
# How long a trial JVM takes from its start to warmed-up with a zero warmup (the READY line of a driven trial), with
# the trial flags (-Xbatch): from the executable jar, from the jar extracted once, and extracted with the class-data
# sharing archive that FastStart makes. Three runs each; prints the seconds and their median.
#
#   docs/perf/trial-start.sh [JAR] [RUNS]
set -eu
JAR=$(realpath "${1:-src/target/perflab.jar}")
RUNS=${2:-3}
WORK=$(mktemp -d)
FLAGS="-Xms512m -Xmx512m -XX:+AlwaysPreTouch -XX:+UseSerialGC -Xbatch -XX:-UseDynamicNumberOfCompilerThreads"
SPEC='{"engineOptions":{},"workload":{"stack":"perflab","mode":"sync","clientThreads":16,"asyncConcurrency":60,"workerThreads":1,"serverReactors":4,"encryption":false,"requestBytes":0,"responseBytes":0,"warmupSeconds":0,"runSeconds":1}}'
java -Djarmode=tools -jar "$JAR" extract --destination "$WORK/extracted" > /dev/null
APP="$WORK/extracted/$(basename "$JAR")"
# the archive as FastStart makes it: one driven trial with -XX:ArchiveClassesAtExit
(sleep 15; echo exit) | java $FLAGS -XX:ArchiveClassesAtExit="$WORK/trial.jsa" -cp "$APP" \
    io.perflab.runner.trial.TrialMain --driven "$SPEC" > /dev/null 2>&1
cat > "$WORK/ready.py" <<'PY'
import subprocess, sys, time
runs, cmd = int(sys.argv[1]), sys.argv[2:]
times = []
for _ in range(runs):
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    for line in p.stdout:
        if line.startswith("PERFLAB-TRIAL-READY"):
            times.append(time.monotonic() - start)
            break
    p.stdin.write("exit\n")
    p.stdin.flush()
    p.wait(timeout=60)
print(" ".join("%.2f" % t for t in times), "s, median %.2f s" % sorted(times)[len(times) // 2])
PY
printf 'load average: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'executable jar (-jar perflab.jar trial):     '
python3 "$WORK/ready.py" "$RUNS" java $FLAGS -jar "$JAR" trial --driven "$SPEC"
printf 'extracted jar (-cp app.jar TrialMain):       '
python3 "$WORK/ready.py" "$RUNS" java $FLAGS -cp "$APP" io.perflab.runner.trial.TrialMain --driven "$SPEC"
printf 'extracted jar + class-data sharing archive:  '
python3 "$WORK/ready.py" "$RUNS" java -XX:SharedArchiveFile="$WORK/trial.jsa" -Xshare:auto $FLAGS -cp "$APP" \
    io.perflab.runner.trial.TrialMain --driven "$SPEC"
rm -rf "$WORK"
