package io.perflab.history;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;

/**
 * One upload in a benchmark's history: the mean of one metric over the upload's samples (its {@code with} side,
 * or its only side) with a 95 % t confidence interval of that mean.
 *
 * @param ciLow null when n &lt; 2
 * @param url the experiment's page
 * @param convertedFrom the unit the upload stored the metric in when its figures here are converted from it to the
 *     history's unit, so that nobody takes them for the stored ones; null when they are as stored
 */
public record HistoryPoint(@Schema(nullable = true) String commit, @Schema(nullable = true) String branch,
                           @Schema(nullable = true) Instant commitTime, Instant uploadedAt, double mean,
                           Double ciLow, Double ciHigh, int n, long experimentId, String url,
                           @Schema(nullable = true) String convertedFrom) {
}
