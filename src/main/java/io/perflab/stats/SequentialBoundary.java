package io.perflab.stats;

/**
 * The boundary of one look of a two-sided group-sequential test ({@link GroupSequential}).
 *
 * @param look 1, 2, …
 * @param informationFraction t<sub>k</sub>: the information at this look over the planned maximum (pairs done over
 *     the most pairs planned)
 * @param alphaSpent the cumulative type I error spent by this look, α*(t<sub>k</sub>) (α at a final look)
 * @param z c<sub>k</sub>: reject at this look when |Z| ≥ c<sub>k</sub>; +∞ when the look spends nothing
 * @param nominalPValue the two-sided nominal level of the boundary, 2·(1 − Φ(c<sub>k</sub>)): reject when the
 *     look's ordinary two-sided p-value is at most this
 */
public record SequentialBoundary(int look, double informationFraction, double alphaSpent, double z,
        double nominalPValue) {
}
