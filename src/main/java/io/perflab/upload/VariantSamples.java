package io.perflab.upload;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One side of an upload.
 *
 * @param label what the uploader called it (a command line, a label), may be null
 * @param metrics metric key → its values, in upload order
 */
public record VariantSamples(String label, Map<String, MetricSamples> metrics) {

    public VariantSamples {
        metrics = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
    }

    /** Total number of values across metrics. */
    public int sampleCount() {
        return metrics.values().stream().mapToInt(m -> m.values().size()).sum();
    }
}
