#!/bin/bash
# Seed 003 (completion=condvar → completion=notification) as the default experiment runs it: alternating, at most 20
# pairs, a look after every pair, here with seed 003's two metrics as the targets and acceptance 4's budget of 10
# minutes. Jar of 2c24896 (PERFLAB_JAR, copied out of the tree; the flags spell out the default it lacks), alone on
# the guest. One file per run, numbered from the first argument to the second: seed-003-default-K.{txt,json}.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
for k in $(seq "$1" "$2"); do
    { date -u +%FT%TZ; uptime; } >> seed-003-default.times
    $J ab --design alternating --pairs 20 --without completion=condvar --with completion=notification \
        --target user_cpu_us_per_req:settled --target ctx_switches_per_req:settled --budget 10m \
        --out seed-003-default-$k.json > seed-003-default-$k.txt 2>&1
done
{ date -u +%FT%TZ; uptime; } >> seed-003-default.times
