package io.perflab.upload;

import io.perflab.experiment.MetricComparison;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.Map;

/**
 * What {@code POST /api/v1/uploads} answers (201).
 *
 * @param experimentId the experiment the upload became
 * @param url the experiment's page
 * @param samples values stored per side
 * @param comparedWith what the comparison is against: {@code variants} (both sides uploaded), {@code base}
 *     (an earlier upload, see {@code baseExperimentId}) or {@code none}
 * @param comparison per metric: means, Δ %, CI, p, Holm-adjusted p, verdict; empty when there is nothing to
 *     compare with
 * @param convertedFrom per metric the base measured in another unit of the same dimension, the unit the base
 *     stored it in: its figures in {@code comparison} ({@code meanWithout} …) are converted from it to this upload's
 *     unit, so that nobody takes them for the stored ones; empty when none are
 * @param notes why there is no comparison, for example
 */
public record UploadResponse(long experimentId, String url, String benchmark, Map<String, Integer> samples,
                             @Schema(allowableValues = {UploadResponse.VARIANTS, UploadResponse.BASE,
                                     UploadResponse.NONE}) String comparedWith,
                             Long baseExperimentId, @Schema(nullable = true) String baseCommit,
                             List<MetricComparison> comparison, Map<String, String> convertedFrom,
                             List<String> notes) {

    /** {@code comparedWith} of an upload of both sides: the comparison is of the two. */
    public static final String VARIANTS = "variants";
    /** {@code comparedWith} of an upload of one side compared with an earlier upload, its base. */
    public static final String BASE = "base";
    /** {@code comparedWith} of an upload of one side that found nothing to compare with. */
    public static final String NONE = "none";
}
