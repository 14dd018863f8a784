#!/bin/bash
# A futility stop for the default's no-change experiments? The stored pairs of the default's campaigns (as in
# longer-default-analyse.sh: A/A 440 pairs, +1.98 % known effect 200 pairs), in run order, cut into consecutive
# sequential experiments of at most N pairs, each stopping when its targets are settled: significant at the
# O'Brien-Fleming-type boundary of PerfLab's GroupSequential, or (with a smallest change of 2 %) futile when the
# conditional power to find +-2 % by pair N falls below gamma. futility.py says how. No trial runs.
cd "$(dirname "$0")"
tmp=$(mktemp -d)
unzip -q "${PERFLAB_JAR:-../../src/target/perflab.jar}" 'BOOT-INF/classes/*' 'BOOT-INF/lib/commons-math3*' -d "$tmp"
for n in 20 40; do
    cat > "$tmp/b.jsh" <<JSH
double[] f = new double[$n - 1];
for (int i = 0; i < f.length; i++) f[i] = (i + 2) / (double) $n;
var b = io.perflab.stats.GroupSequential.boundaries(io.perflab.stats.SpendingFunction.OBRIEN_FLEMING, 0.05, f);
System.out.println(b.stream().map(x -> Double.toString(x.nominalPValue())).collect(java.util.stream.Collectors.joining(" ")));
/exit
JSH
    jshell -q --class-path "$tmp/BOOT-INF/classes:$(ls "$tmp"/BOOT-INF/lib/commons-math3*.jar)" "$tmp/b.jsh" \
        2>/dev/null | tail -1 > "$tmp/obf-$n.txt"
done
AA="aa-twenty-idle-1.json aa-twenty-idle-2.json aa-twenty-idle-3.json aa-twenty-idle-4.json
    $(ls seq-aa-20-[0-9]*.json | sort -t- -k4 -n) a3d-default-1.json a3d-default-2.json"
KE=$(ls seq-fresh-1700-[0-9]*.json | sort -t- -k4 -n)
for n in 20 40; do
    for rule in "0 0" "2 0.1" "2 0.2"; do
        # shellcheck disable=SC2086
        ./futility.py "$tmp" $n $rule aa $AA
        # shellcheck disable=SC2086
        ./futility.py "$tmp" $n $rule ke $KE
    done
done > futility.txt
rm -r "$tmp"
