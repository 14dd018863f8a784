package io.perflab.upload;

/**
 * A shell script that stands for a JMH run of one throughput benchmark ({@code org.demo.Parse.parse}, ops/s): it
 * writes JMH's {@code -rf json} to the file named by its first argument, as {@code -rff} would, and prints a progress
 * line. Two forks of two iterations each, {@code $SCORE + n}, {@code + 2}, {@code + 4}, {@code + 6}, where n counts
 * the runs in the working directory (1, 2, …), so the run's mean is {@code SCORE + n + 3}.
 */
public final class JmhRunScript {

    public static final String SCRIPT = """
            n=$(cat runs 2>/dev/null || echo 0); n=$((n + 1)); echo $n > runs
            echo "# Run progress: 100.00% complete"
            cat > "$1" <<JSON
            [{"jmhVersion": "1.37", "benchmark": "org.demo.Parse.parse", "mode": "thrpt", "threads": 1, "forks": 2,
              "jdkVersion": "17.0.15", "vmName": "OpenJDK 64-Bit Server VM",
              "primaryMetric": {"score": 1, "scoreUnit": "ops/s",
                "rawData": [[$((SCORE + n)), $((SCORE + n + 2))], [$((SCORE + n + 4)), $((SCORE + n + 6))]]},
              "secondaryMetrics": {}}]
            JSON
            """;

    private JmhRunScript() {
    }
}
