#!/bin/bash
# Where a stack's CPU goes: one `perflab bench` per stack, and during 10 s of its measured window
#   - perf stat counts the system calls the JVM makes, printed per call of the benchmark;
#   - perf record samples its CPU (kernel and JIT-compiled Java, via -XX:+DumpPerfMapAtExit) by shared
#     object and by symbol.
# Usage: docs/perf/kernel-profile.sh JAR [STACK...] (default stacks: perflab netty). Needs perf; run as root or
# with kernel.perf_event_paranoid <= 1.
set -eu
jar=${1:?usage: kernel-profile.sh JAR [STACK...]}
shift
if [ $# -eq 0 ]; then stacks=(perflab netty); else stacks=("$@"); fi
out=$(mktemp -d)
events=$(printf 'syscalls:sys_enter_%s,' futex epoll_pwait2 epoll_pwait epoll_wait sendto recvfrom write read \
    writev readv sendmsg recvmsg)
for stack in "${stacks[@]}"; do
  java -Xms512m -Xmx512m -XX:+AlwaysPreTouch -XX:+UseSerialGC -XX:+UnlockDiagnosticVMOptions \
      -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer -jar "$jar" bench --stack "$stack" \
      --warmup-seconds 12 --run-seconds 20 > "$out/$stack.txt" 2> "$out/$stack.err" &
  pid=$!
  sleep 16
  perf stat -x, -e "${events%,}" -p "$pid" -o "$out/$stack.stat" -- sleep 10 &
  perf record -q -F 499 -g -p "$pid" -o "$out/$stack.data" -- sleep 10 > /dev/null 2>&1
  wait
  rps=$(awk '/^Reqs\/sec:/ {print $2}' "$out/$stack.txt")
  echo "== $stack: $(grep -E '^(Reqs/sec|User CPU per req|Sys CPU per req|Ctx Sw. per req):' "$out/$stack.txt" \
      | tr -s ' ' | paste -sd ';' -)"
  echo "system calls per call (10 s at the window's $rps calls/s):"
  awk -F, -v n="$rps" '$1 ~ /^[0-9]+$/ && $1 > 0 { sub("syscalls:sys_enter_", "", $3);
      printf "  %-14s %6.3f\n", $3, $1 / (n * 10) }' "$out/$stack.stat" | sort -k2 -rn
  echo "CPU samples by object:"
  perf report -i "$out/$stack.data" --no-children --sort dso -g none -q 2>/dev/null | head -5 \
      | sed 's/  *$//; s/^/  /'
  echo "CPU samples by symbol:"
  perf report -i "$out/$stack.data" --no-children --sort sym -g none -q 2>/dev/null | head -12 \
      | sed 's/  *$//; s/^/  /'
done
rm -rf "$out"
