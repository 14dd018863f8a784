#!/bin/bash
# The futility stop of a smallest change (--target METRIC:mde=2%) judged by PerfLab itself on the stored pairs of the
# default's campaigns (as longer-default-analyse.sh: A/A 440 pairs, +1.98 % known effect 200 pairs), cut into fixed
# blocks of 20 and 40 pairs, each judged as a sequential experiment with a look after every pair. The A/A twice:
# with the four headline metrics as targets (false positives per metric), and with CPU per call alone, the
# default's target (the pairs an experiment that finds nothing uses). No trial runs.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
tmp=$(mktemp -d)
./pairs-concat.py "$tmp/aa.json" aa-twenty-idle-[1-4].json $(ls seq-aa-20-[0-9]*.json | sort -t- -k4 -n) \
    a3d-default-1.json a3d-default-2.json > /dev/null
./pairs-concat.py "$tmp/ke.json" $(ls seq-fresh-1700-[0-9]*.json | sort -t- -k4 -n) > /dev/null
for k in 20 40; do
    ./aa-clean-blocks.py $k 1000 "$tmp/aa$k.json" "$tmp/aa.json" > /dev/null
    ./aa-clean-blocks.py $k 1000 "$tmp/ke$k.json" "$tmp/ke.json" > /dev/null
    n=$(python3 -c "import json; print(json.load(open('$tmp/aa$k.json'))['experiment']['pairs'] // $k)")
    $J calibrate --from "$tmp/aa$k.json" --experiments "$n" --pairs $k --target user_cpu_us_per_req:mde=2% \
        --target sys_cpu_us_per_req:mde=2% --target cpu_us_per_req:mde=2% --target ctx_switches_per_req:mde=2% \
        > mde-aa-$k.txt 2>&1
    $J calibrate --from "$tmp/aa$k.json" --experiments "$n" --pairs $k --target cpu_us_per_req:mde=2% \
        > mde-aa-cpu-$k.txt 2>&1
    n=$(python3 -c "import json; print(json.load(open('$tmp/ke$k.json'))['experiment']['pairs'] // $k)")
    $J calibrate --from "$tmp/ke$k.json" --experiments "$n" --pairs $k --inject serverWorkNanos=1700 \
        --target cpu_us_per_req:mde=2% > mde-ke-$k.txt 2>&1
done
rm -r "$tmp"
