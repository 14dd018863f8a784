package io.perflab.experiment;

import java.util.Set;

/**
 * What a metric measures and which way is better.
 *
 * @param key e.g. {@code user_cpu_us_per_req}
 * @param unit e.g. {@code us}
 * @param higherIsBetter true for throughput-like metrics
 * @param displayOrder headline metrics first
 */
public record MetricDefinition(String key, String unit, boolean higherIsBetter, int displayOrder,
                               String description) {

    /**
     * The units of quantities that are never below 0: times ({@code ns}, {@code us}, {@code ms}, {@code s}), counts,
     * sizes ({@code bytes}) and rates ({@code req/s}) — every unit of the metrics PerfLab defines.
     */
    static final Set<String> NEVER_NEGATIVE_UNITS = Set.of("ns", "us", "ms", "s", "count", "bytes", "req/s");

    /** Whether no value of this metric below 0 can have been measured: its unit is a {@link #NEVER_NEGATIVE_UNITS}. */
    public boolean neverNegative() {
        return NEVER_NEGATIVE_UNITS.contains(unit);
    }
}
