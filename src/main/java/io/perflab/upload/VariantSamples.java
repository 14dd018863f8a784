package io.perflab.upload;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One side of an upload.
 *
 * @param label what the uploader called it (a command line, a label), may be null
 * @param metrics metric key → its values, in upload order
 * @param configuration settings every sample of this side ran with, as the output printed them (rpc-bench's
 *     {@code mode}, {@code client_threads}, engine options such as {@code completion}…); empty when the format
 *     prints none
 */
public record VariantSamples(String label, Map<String, MetricSamples> metrics, Map<String, String> configuration) {

    public VariantSamples {
        metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
        configuration = configuration == null ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(configuration));
    }

    /** A side without configuration. */
    public VariantSamples(String label, Map<String, MetricSamples> metrics) {
        this(label, metrics, null);
    }

    /** Total number of values across metrics. */
    public int sampleCount() {
        return metrics.values().stream().mapToInt(m -> m.values().size()).sum();
    }
}
