#!/bin/bash
# Seed 003 with completion=futex as the change's side: the waiter asleep in futex(2) called directly, as Kudu's
# Notification, instead of LockSupport.park (whose Parker is a pthread mutex and condition variable). As the
# default's seed 003 run of 12-06 (seed-003-default.sh): alternating, at most 20 pairs, a look after every pair, seed
# 003's two metrics as the targets, acceptance 4's budget of 10 minutes; then notification → futex, the Parker's
# pthread layer alone (skipped when a third argument is given). Jar copied out of the tree (PERFLAB_JAR), alone on
# the guest. Arguments: first and last run number of condvar → futex; files seed-003-futex-K.{txt,json} and seed-003-notification-futex.{txt,json}.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
for k in $(seq "$1" "$2"); do
    { date -u +%FT%TZ; uptime; } >> seed-003-futex.times
    $J ab --design alternating --pairs 20 --without completion=condvar --with completion=futex \
        --target user_cpu_us_per_req:settled --target ctx_switches_per_req:settled --budget 10m \
        --out seed-003-futex-$k.json > seed-003-futex-$k.txt 2>&1
done
{ date -u +%FT%TZ; uptime; } >> seed-003-futex.times
[ -n "$3" ] && exit 0
$J ab --design alternating --pairs 20 --without completion=notification --with completion=futex \
    --target user_cpu_us_per_req:settled --target ctx_switches_per_req:settled --budget 10m \
    --out seed-003-notification-futex.json > seed-003-notification-futex.txt 2>&1
{ date -u +%FT%TZ; uptime; } >> seed-003-futex.times
