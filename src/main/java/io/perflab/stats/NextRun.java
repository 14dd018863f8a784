package io.perflab.stats;

/**
 * A paired design for a run of a given length: the windows per pair and the pairs that fit, and the smallest change
 * it detects if the variance components stay as measured ({@link VarianceComponents#nextRun}).
 *
 * @param budgetSeconds the run's length, seconds spent on pairs
 * @param windowsPerPair m, windows of each variant per pair
 * @param pairs K = ⌊budget/(c₁ + m·c₂)⌋, at least 2
 * @param mdePercent the relative change this design detects with the asked power,
 *     100·(e<sup>MDE</sup> − 1) % with MDE = (t<sub>1−α/2,K−1</sub> + t<sub>power,K−1</sub>)·√(σ²<sub>between</sub>/K
 *     + σ²<sub>within</sub>/(K·m))
 */
public record NextRun(double budgetSeconds, int windowsPerPair, long pairs, double mdePercent) {
}
