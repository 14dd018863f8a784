package io.perflab.upload;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * One side of an upload.
 *
 * @param label what the uploader called it (a command line, a label), may be null
 * @param metrics metric key → its values, in upload order
 * @param configuration settings every sample of this side ran with, as the output printed them (rpc-bench's
 *     {@code mode}, {@code client_threads}, engine options such as {@code completion}…); empty when the format
 *     prints none
 * @param fields where the side is in PerfLab's upload JSON, for a refusal of its label or of a metric to name; null
 *     for another format
 */
public record VariantSamples(String label, Map<String, MetricSamples> metrics, Map<String, String> configuration,
                             Fields fields) {

    /**
     * Where a side is in PerfLab's upload JSON, as a refusal's field names it ({@link UploadFields}).
     *
     * @param label the field of its label: {@code with.label} in a side's block; {@code variant} for the side of the
     *     top level's {@code metrics}, named by that field or by {@code ?variant=}
     * @param metrics the field of its metrics: {@code metrics}, {@code with.metrics}
     * @param listed the keys of the metrics written as their list of values alone ({@code "parse": [1, 2]}), whose
     *     values are at the metric's own field
     */
    public record Fields(String label, String metrics, Set<String> listed) {

        public Fields {
            listed = Set.copyOf(listed);
        }

        /** The field of metric {@code key}: {@code metrics.parse}. */
        String metric(String key) {
            return UploadFields.key(metrics, key);
        }

        /** The field of the values of metric {@code key}: {@code metrics.parse.values}, or {@code metrics.parse}. */
        String values(String key) {
            return listed.contains(key) ? metric(key) : UploadFields.key(metric(key), "values");
        }
    }

    public VariantSamples {
        metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
        configuration = configuration == null ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(configuration));
    }

    /** A side another format printed, with its configuration. */
    public VariantSamples(String label, Map<String, MetricSamples> metrics, Map<String, String> configuration) {
        this(label, metrics, configuration, null);
    }

    /** A side without configuration another format printed. */
    public VariantSamples(String label, Map<String, MetricSamples> metrics) {
        this(label, metrics, null, null);
    }

    /** Total number of values across metrics. */
    public int sampleCount() {
        return metrics.values().stream().mapToInt(m -> m.values().size()).sum();
    }
}
