package io.perflab.upload;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.Map;

/**
 * PerfLab's own upload JSON as the API documentation shows it ({@link NativeJsonAdapter} reads it). Other formats
 * (JMH, Go, Google Benchmark, hyperfine, rpc-bench, CSV) are sent as they are, with {@code ?format=}.
 */
@Schema(name = "NativeUpload", description = "PerfLab's own upload JSON; give 'metrics' for one side or "
        + "'without'/'with' blocks for both")
record NativeUploadSchema(
        @Schema(example = "parser") String benchmark,
        @Schema(example = "nightly parser run") String name,
        @Schema(description = "'with' (default), 'without', or a label stored as 'with'") String variant,
        Map<String, Metric> metrics,
        Side without,
        Side with,
        Git git,
        @Schema(description = "what it ran on, free form") Map<String, String> machine,
        List<String> tags) {

    /**
     * One metric's values. Named apart from an experiment's compared metric, {@code MetricComparison.Metric}: under
     * one name, the document showed that one's fields here ({@code metric}, {@code description}), and no
     * {@code values}.
     */
    @Schema(name = "UploadMetric")
    record Metric(@Schema(example = "ns") String unit,
                  @Schema(allowableValues = {"lower", "higher"}) String direction,
                  @Schema(example = "[12.1, 12.3, 12.2]") List<Double> values) {
    }

    /** One side of a two-sided upload. */
    record Side(String label, Map<String, Metric> metrics) {
    }

    /** The commit measured. */
    record Git(String repository, String branch, String commit, String baseCommit, String pullRequest,
               @Schema(example = "2025-01-31T12:00:00Z") String commitTime, String defaultBranch) {
    }
}
