package io.perflab.experiment;

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
}
