#!/bin/bash
# Acceptance 1 for a default of at most 40 pairs with the futility stop (--pairs 40 --target cpu_us_per_req:mde=2%):
# the A/A experiments of 40 pairs. Eleven are the 440 stored A/A pairs of the default's campaigns (as mde-analyse.sh
# cut them: aa-twenty-idle-1..4, seq-aa-20-*, a3d-default-1..2), the rest the fresh 40-pair runs of aa-40.sh; all
# judged by PerfLab itself, whole and as that default stops them: with the four headline metrics as targets of that
# kind (aa-40-all.txt, false positives per metric and pooled), and with the default's target alone (aa-40-all-cpu.txt,
# the pairs an experiment that finds nothing uses); the fresh ones alone (aa-40-fresh.txt). No trial runs.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
tmp=$(mktemp -d)
fresh=$(ls aa-40-[0-9]*.json | sort -t- -k3 -n)
./pairs-concat.py "$tmp/all.json" aa-twenty-idle-[1-4].json $(ls seq-aa-20-[0-9]*.json | sort -t- -k4 -n) \
    a3d-default-1.json a3d-default-2.json $fresh > /dev/null
./pairs-concat.py "$tmp/fresh.json" $fresh > /dev/null
headline="--target user_cpu_us_per_req:mde=2% --target sys_cpu_us_per_req:mde=2% --target cpu_us_per_req:mde=2%
    --target ctx_switches_per_req:mde=2%"
for set in all fresh; do
    ./aa-clean-blocks.py 40 1000 "$tmp/${set}40.json" "$tmp/$set.json" > "$tmp/$set-blocks.txt"
    n=$(python3 -c "import json; print(json.load(open('$tmp/${set}40.json'))['experiment']['pairs'] // 40)")
    $J calibrate --from "$tmp/${set}40.json" --experiments "$n" --pairs 40 $headline > "aa-40-$set.txt" 2>&1
    [ $set = all ] && $J calibrate --from "$tmp/all40.json" --experiments "$n" --pairs 40 \
        --target cpu_us_per_req:mde=2% > aa-40-all-cpu.txt 2>&1
done
cp "$tmp/all-blocks.txt" aa-40-all-blocks.txt
rm -r "$tmp"
