#!/bin/bash
# The fresh A/A experiments of seq-aa-20.sh judged together, fixed-size and as the sequential experiment of at most
# 20 pairs stops (the four headline metrics as targets), then with the eight 20-pair blocks of acceptance 1's twenty
# of 12-05 (aa-twenty-idle, build d57735c, the same measured path) beside them. No trial runs.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
HEADLINE="--target user_cpu_us_per_req:settled --target sys_cpu_us_per_req:settled --target cpu_us_per_req:settled
    --target ctx_switches_per_req:settled"
fresh=$(ls seq-aa-20-[0-9]*.json | sort -t- -k4 -n)
./aa-clean-blocks.py 20 1000 seq-aa-20-all.json $fresh > seq-aa-20-blocks.txt
./aa-clean-blocks.py 20 1000 seq-aa-20-with-idle.json aa-twenty-idle-[1-4].json $fresh >> seq-aa-20-blocks.txt
for f in seq-aa-20-all seq-aa-20-with-idle; do
    n=$(python3 -c "import json; print(json.load(open('$f.json'))['experiment']['pairs'] // 20)")
    # shellcheck disable=SC2086
    $J calibrate --from $f.json --experiments "$n" --pairs 20 $HEADLINE > $f.txt 2>&1
done
rm seq-aa-20-with-idle.json  # the blocks of files kept in docs/perf, written again by this script
