#!/bin/bash
# usage: run.sh JAR LABEL PORT  -- one server on a fresh data dir: a 1,000,000-sample upload, then 6 concurrent
# full sample exports (JSON) and 6 concurrent CSV exports; prints each export's seconds and bytes, and the JVM's peak RSS
JAR=$1; LABEL=$2; PORT=$3; DIR=/tmp/exp/data-$LABEL
rm -rf $DIR; mkdir -p $DIR
java -jar $JAR --server.port=$PORT --perflab.data-dir=$DIR --perflab.security.bootstrap-token=exp-token-123456789012345 > /tmp/exp/$LABEL.log 2>&1 &
PID=$!
for i in $(seq 90); do curl -s localhost:$PORT/actuator/health >/dev/null && break; sleep 1; done
[ -f /tmp/exp/big.csv ] || python3 -c "
import random
random.seed(1)
with open('/tmp/exp/big.csv','w') as f:
    f.write('metric,value\n')
    for m in range(20):
        for i in range(50000):
            f.write('m%02d,%.3f\n' % (m, 100 + random.random()))"
ID=$(curl -s -H 'Authorization: Bearer exp-token-123456789012345' -H 'Content-Type: text/csv' --data-binary @/tmp/exp/big.csv "localhost:$PORT/api/v1/uploads?format=csv&benchmark=big" | python3 -c 'import json,sys; print(json.load(sys.stdin)["experimentId"])')
echo "$LABEL upload id $ID, RSS after upload $(grep VmRSS /proc/$PID/status | awk '{print $2/1024 " MB"}')"
for accept in application/json text/csv; do
  PIDS=""
  for k in 1 2 3 4 5 6; do
    curl -s -o /dev/null -w "$LABEL $accept %{time_total} s %{size_download} bytes %{http_code}\n" -H "Accept: $accept" localhost:$PORT/api/v1/experiments/$ID/samples &
    PIDS="$PIDS $!"
  done
  wait $PIDS
  echo "$LABEL peak RSS after $accept $(grep VmHWM /proc/$PID/status | awk '{print $2/1024 " MB"}')"
done
echo "$LABEL peak RSS $(grep VmHWM /proc/$PID/status | awk '{print $2/1024 " MB"}')"
kill $PID; wait $PID 2>/dev/null
