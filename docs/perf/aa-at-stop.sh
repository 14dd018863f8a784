#!/bin/bash
# Acceptance 1 for a default of at most K pairs (the first argument: 40 or 20) as the default reports an A/A
# experiment: CPU per call by its stopping rule (--pairs K --target cpu_us_per_req:mde=2%), and user CPU, system CPU
# and context switches per call by the paired t-test of the pairs run until that stop, as `perflab ab`, the experiment
# page and the API judge every metric but the target. The experiments are aa-40-analyse.sh's, cut into blocks of K
# pairs: the stored A/A pairs and the fresh aa-40-N.json (with K = 20, the stored ones alone: the twenty-two blocks of
# the 20-pair default's A/A). Each is judged alone by PerfLab (the stop, then the fixed test of the pairs before it).
# No trial runs. Usage: aa-at-stop.sh K > aa-K-at-stop.txt
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
tmp=$(mktemp -d)
k=$1
fresh=$([ "$k" = 40 ] && ls aa-40-[0-9]*.json | sort -t- -k3 -n)
./pairs-concat.py "$tmp/all.json" aa-twenty-idle-[1-4].json $(ls seq-aa-20-[0-9]*.json | sort -t- -k4 -n) \
    a3d-default-1.json a3d-default-2.json $fresh > /dev/null
./aa-clean-blocks.py "$k" 1000 "$tmp/blocks.json" "$tmp/all.json" > /dev/null
n=$(python3 -c "import json; print(json.load(open('$tmp/blocks.json'))['experiment']['pairs'] // $k)")
headline="user_cpu_us_per_req sys_cpu_us_per_req cpu_us_per_req ctx_switches_per_req"
echo "experiment  stop: pairs, CPU per call by the rule  |  at the stop, paired t: user CPU, system CPU, CPU, ctx sw"
for b in $(seq 0 $((n - 1))); do
    ./pairs-block.py "$tmp/blocks.json" "$k" "$b" "$k" "$tmp/b.json"
    $J calibrate --from "$tmp/b.json" --experiments 1 --pairs "$k" --target cpu_us_per_req:mde=2% > "$tmp/rule.txt" 2>&1
    stop=$(sed -n 's/^stopped:.*pairs used: median \([0-9]*\) .*/\1/p' "$tmp/rule.txt")
    rule=$(sed -n '/judged as sequential/,$p' "$tmp/rule.txt" | awk '$1 == "cpu_us_per_req" {print $3}')
    ./pairs-block.py "$tmp/blocks.json" "$k" "$b" "$stop" "$tmp/s.json"
    $J calibrate --from "$tmp/s.json" --experiments 1 --pairs "$stop" > "$tmp/stop.txt" 2>&1
    calls=""
    for m in $headline; do
        calls="$calls $(awk -v m="$m" '$1 == m {print $3; exit}' "$tmp/stop.txt")"
    done
    printf "%10d  %4s  %s  |%s\n" $((b + 1)) "$stop" "$rule" "$calls"
done
rm -r "$tmp"
