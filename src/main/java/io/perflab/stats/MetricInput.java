package io.perflab.stats;

/**
 * One metric of an experiment to compare.
 *
 * @param name metric key, e.g. {@code user_cpu_us_per_req}
 * @param direction which way it improves
 * @param with the {@code with} sample
 * @param without the {@code without} (baseline) sample
 */
public record MetricInput(String name, Direction direction, Sample with, Sample without) {
}
