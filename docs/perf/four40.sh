#!/bin/bash
# The fresh check of the candidate default "at most 40 pairs, the four headline metrics each an mde=2% target"
# (alternating, --pairs 40, --target user_cpu_us_per_req:mde=2% sys_cpu_us_per_req:mde=2% cpu_us_per_req:mde=2%
# ctx_switches_per_req:mde=2%), decided on before these ran: known-effect experiments (serverWorkNanos=1700 on the with
# side, the +1.98 % of seq-fresh-1700-*) and A/A experiments, alternating ke, aa, ke, … Each runs whole and is judged
# at 40 pairs and as the candidate would stop it. Jar of 88492d4 (PERFLAB_JAR, copied out of the tree; its engine and
# runner are 0d806a7's, which ran aa-40-* and ke-40-*), alone on the guest. Arguments: the first and last experiment
# number; odd ones are known-effect (four40-ke-K), even ones A/A (four40-aa-K).
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
T="--target user_cpu_us_per_req:mde=2% --target sys_cpu_us_per_req:mde=2% --target cpu_us_per_req:mde=2%"
T="$T --target ctx_switches_per_req:mde=2%"
for k in $(seq "$1" "$2"); do
    { date -u +%FT%TZ; uptime; } >> four40.times
    if [ $((k % 2)) -eq 1 ]; then
        $J calibrate --experiments 1 --pairs 40 --inject serverWorkNanos=1700 $T \
            --out four40-ke-$k.json > four40-ke-$k.txt 2>&1
    else
        $J calibrate --experiments 1 --pairs 40 $T --out four40-aa-$k.json > four40-aa-$k.txt 2>&1
    fi
done
{ date -u +%FT%TZ; uptime; } >> four40.times
