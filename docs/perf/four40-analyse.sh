#!/bin/bash
# The fresh check of the candidate default "at most 40 pairs, the four headline metrics each an mde=2% target"
# (four40.sh), judged by PerfLab itself as that default stops an experiment. The fresh experiments alone
# (four40-aa-fresh.txt, four40-ke-fresh.txt), and pooled with the stored 40-pair experiments the candidate was chosen
# on: the twenty A/A of aa-40-analyse.sh (four40-aa-all.txt) and the ten known-effect ones of ke-40-analyse.sh
# (four40-ke-all.txt); four40-blocks.txt says how busy the guest was in each fresh one. No trial runs.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
T="--target user_cpu_us_per_req:mde=2% --target sys_cpu_us_per_req:mde=2% --target cpu_us_per_req:mde=2%"
T="$T --target ctx_switches_per_req:mde=2%"
tmp=$(mktemp -d)
aa=$(ls four40-aa-[0-9]*.json | sort -t- -k3 -n)
ke=$(ls four40-ke-[0-9]*.json | sort -t- -k3 -n)
./pairs-concat.py "$tmp/aa-all.json" aa-twenty-idle-[1-4].json $(ls seq-aa-20-[0-9]*.json | sort -t- -k4 -n) \
    a3d-default-1.json a3d-default-2.json $(ls aa-40-[0-9]*.json | sort -t- -k3 -n) $aa > /dev/null
./pairs-concat.py "$tmp/aa-fresh.json" $aa > /dev/null
./pairs-concat.py "$tmp/ke-all.json" $(ls seq-fresh-1700-[0-9]*.json | sort -t- -k4 -n) \
    $(ls ke-40-[0-9]*.json | sort -t- -k3 -n) $ke > /dev/null
./pairs-concat.py "$tmp/ke-fresh.json" $ke > /dev/null
for set in aa-all aa-fresh ke-all ke-fresh; do
    ./aa-clean-blocks.py 40 1000 "$tmp/${set}40.json" "$tmp/$set.json" > "$tmp/$set-blocks.txt"
    n=$(python3 -c "import json; print(json.load(open('$tmp/${set}40.json'))['experiment']['pairs'] // 40)")
    inject=$([ "${set%%-*}" = ke ] && echo "--inject serverWorkNanos=1700")
    $J calibrate --from "$tmp/${set}40.json" --experiments "$n" --pairs 40 $inject $T > "four40-$set.txt" 2>&1
done
# each fresh experiment with the most CPU other processes used while one of its windows ran
cat "$tmp/aa-fresh-blocks.txt" "$tmp/ke-fresh-blocks.txt" > four40-blocks.txt
rm -r "$tmp"
