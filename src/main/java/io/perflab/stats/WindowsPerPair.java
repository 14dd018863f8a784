package io.perflab.stats;

/**
 * Kalibera and Jones's recommendation of windows per pair for the next run of a paired design
 * ({@link VarianceComponents#windowsPerPair}).
 *
 * @param optimum the unrounded m* = √(c₁·σ²<sub>within</sub>/(c₂·σ²<sub>between</sub>)); +∞ when the between-pairs
 *     component is 0
 * @param recommended the integer to use, in [1, the cap]
 * @param capped whether m* exceeded the cap (more windows would still have helped)
 */
public record WindowsPerPair(double optimum, int recommended, boolean capped) {
}
