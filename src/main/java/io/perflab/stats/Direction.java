package io.perflab.stats;

/** Which way a metric improves (DESIGN's metric table): throughput is higher-is-better, CPU lower-is-better. */
public enum Direction {
    /** Larger values are better, e.g. {@code reqs_per_sec}. */
    HIGHER_IS_BETTER,
    /** Smaller values are better, e.g. {@code user_cpu_us_per_req}. */
    LOWER_IS_BETTER;

    /** How JSON and tables say which way is better: {@code higher} or {@code lower}. */
    public String label() {
        return this == HIGHER_IS_BETTER ? "higher" : "lower";
    }

    /** Whether a change of the given sign ({@code with − without}) is an improvement. */
    public boolean improves(double difference) {
        return this == HIGHER_IS_BETTER ? difference > 0 : difference < 0;
    }
}
