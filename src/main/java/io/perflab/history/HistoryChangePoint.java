package io.perflab.history;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * A change point in a history: the series shifts at point {@code index} (the first point of the new level).
 *
 * @param percent change of the mean level after vs before, in percent of before
 * @param pValue the permutation p-value of the E-divisive split
 */
public record HistoryChangePoint(int index, @Schema(nullable = true) String commit, long experimentId,
                                 double meanBefore, double meanAfter, Double percent, double pValue) {
}
