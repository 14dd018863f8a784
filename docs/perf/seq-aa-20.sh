#!/bin/bash
# Fresh A/A experiments of the sequential design of at most 20 pairs (alternating, 3 windows of 3 s, auto:15; the
# four headline metrics as targets, as acceptance 1 counts them), on a guest left idle for the whole run, jar of
# 2c24896 (PERFLAB_JAR, copied out of the tree). One file per experiment, numbered from the first argument to the
# second, so that queues of several stops add up: seq-aa-20-K.json. Judged together by seq-aa-20-analyse.sh.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
for k in $(seq "$1" "$2"); do
    { date -u +%FT%TZ; uptime; } >> seq-aa-20.times
    $J calibrate --experiments 1 --pairs 20 --target user_cpu_us_per_req:settled \
        --target sys_cpu_us_per_req:settled --target cpu_us_per_req:settled --target ctx_switches_per_req:settled \
        --out seq-aa-20-$k.json > seq-aa-20-$k.txt 2>&1
done
{ date -u +%FT%TZ; uptime; } >> seq-aa-20.times
