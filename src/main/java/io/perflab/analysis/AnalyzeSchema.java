package io.perflab.analysis;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * The body of {@code POST /api/v1/analyze} as the API documentation shows it; {@link AnalyzeRequest} reads it
 * field by field, so that an error names the field.
 */
@Schema(name = "AnalyzeRequest")
record AnalyzeSchema(
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "the change's values (x), at least 2 "
                + "finite numbers", example = "[16.1, 17.2, 16.5, 16.9, 17.0, 16.4]") List<Double> with,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "the baseline's values (y)",
                example = "[18.3, 18.0, 17.1, 17.9, 18.4, 17.6]") List<Double> without,
        @Schema(description = "of the intervals, between 0 and 1", defaultValue = "0.95") Double confidenceLevel,
        @Schema(allowableValues = {"two-sided", "less", "greater"}, defaultValue = "two-sided") String alternative,
        @Schema(description = "equivalence margin in percent of the baseline mean (TOST)", defaultValue = "1")
        Double margin,
        @Schema(allowableValues = {"lower", "higher"}, defaultValue = "lower") String better,
        @Schema(description = "with[i] and without[i] are a pair: adds the paired t-test", defaultValue = "false")
        Boolean paired) {
}
