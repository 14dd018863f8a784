#!/bin/bash
# Would a longer default meet acceptance 2? The stored pairs of the default's campaigns on the current measured
# path, joined in run order and cut into experiments of at most 30 and 40 pairs, judged as the default judges
# (a look after every pair, the target cpu_us_per_req:settled; the A/A with the four headline metrics as targets).
# A/A: aa-twenty-idle-1..4, seq-aa-20-1..12, a3d-default-1..2 (440 pairs); known effect: seq-fresh-1700-1..10
# (+1.98 %, 200 pairs). No trial runs.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
HEADLINE="--target user_cpu_us_per_req:settled --target sys_cpu_us_per_req:settled --target cpu_us_per_req:settled
    --target ctx_switches_per_req:settled"
tmp=$(mktemp -d)
./pairs-concat.py "$tmp/aa.json" aa-twenty-idle-[1-4].json $(ls seq-aa-20-[0-9]*.json | sort -t- -k4 -n) \
    a3d-default-1.json a3d-default-2.json > longer-default-blocks.txt
./pairs-concat.py "$tmp/ke.json" $(ls seq-fresh-1700-[0-9]*.json | sort -t- -k4 -n) >> longer-default-blocks.txt
for k in 30 40; do
    ./aa-clean-blocks.py $k 1000 "$tmp/aa$k.json" "$tmp/aa.json" >> longer-default-blocks.txt
    ./aa-clean-blocks.py $k 1000 "$tmp/ke$k.json" "$tmp/ke.json" >> longer-default-blocks.txt
    n=$(python3 -c "import json; print(json.load(open('$tmp/aa$k.json'))['experiment']['pairs'] // $k)")
    # shellcheck disable=SC2086
    $J calibrate --from "$tmp/aa$k.json" --experiments "$n" --pairs $k $HEADLINE > longer-default-aa-$k.txt 2>&1
    n=$(python3 -c "import json; print(json.load(open('$tmp/ke$k.json'))['experiment']['pairs'] // $k)")
    $J calibrate --from "$tmp/ke$k.json" --experiments "$n" --pairs $k --inject serverWorkNanos=1700 \
        --target cpu_us_per_req:settled > longer-default-ke-$k.txt 2>&1
done
rm -r "$tmp"
