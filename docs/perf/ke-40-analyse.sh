#!/bin/bash
# Acceptance 2 for a default of at most 40 pairs with the futility stop (--pairs 40 --target cpu_us_per_req:mde=2%):
# the ten known-effect experiments of 40 pairs, serverWorkNanos=1700 (+1.98 % of CPU per call) on the with side.
# Five are the 200 pairs of seq-fresh-1700-1..10 (20-pair runs, one 40-pair block per two, as mde-analyse.sh cut
# them), five the fresh 40-pair runs of ke-40.sh; all judged by PerfLab itself, whole and as that default stops them
# (ke-40-all.txt), also with the four headline metrics as targets (ke-40-all-four.txt), and the fresh five
# alone (ke-40-fresh.txt). No trial runs.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
tmp=$(mktemp -d)
fresh=$(ls ke-40-[0-9]*.json | sort -t- -k3 -n)
./pairs-concat.py "$tmp/ke.json" $(ls seq-fresh-1700-[0-9]*.json | sort -t- -k4 -n) $fresh > /dev/null
./pairs-concat.py "$tmp/fresh.json" $fresh > /dev/null
for set in ke fresh; do
    ./aa-clean-blocks.py 40 1000 "$tmp/${set}40.json" "$tmp/$set.json" > /dev/null
    n=$(python3 -c "import json; print(json.load(open('$tmp/${set}40.json'))['experiment']['pairs'] // 40)")
    out=$([ $set = ke ] && echo ke-40-all.txt || echo ke-40-fresh.txt)
    $J calibrate --from "$tmp/${set}40.json" --experiments "$n" --pairs 40 --inject serverWorkNanos=1700 \
        --target cpu_us_per_req:mde=2% > "$out" 2>&1
    # the ten again with the four headline metrics as targets of that kind, each judged by its own rule
    [ $set = ke ] && $J calibrate --from "$tmp/ke40.json" --experiments "$n" --pairs 40 \
        --inject serverWorkNanos=1700 --target user_cpu_us_per_req:mde=2% --target sys_cpu_us_per_req:mde=2% \
        --target cpu_us_per_req:mde=2% --target ctx_switches_per_req:mde=2% > ke-40-all-four.txt 2>&1
done
rm -r "$tmp"
