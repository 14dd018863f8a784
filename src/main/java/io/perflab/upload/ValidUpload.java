package io.perflab.upload;

import io.perflab.experiment.MetricDefinition;
import java.util.Map;

/**
 * An upload that passed validation, ready to store.
 *
 * @param benchmark the benchmark's name (from the content or the request)
 * @param name the experiment's title
 * @param git the content's git fields, completed from the request's
 * @param metrics unit and direction of every metric: the upload's, else the known definition's, else lower
 */
record ValidUpload(String benchmark, String name, ParsedUpload parsed, GitInfo git,
                   Map<String, MetricDefinition> metrics) {

    /** Runs a side needs: its longest list of values. */
    static int runCount(VariantSamples variant) {
        return variant.metrics().values().stream().mapToInt(m -> m.values().size()).max().orElse(0);
    }

    int sampleCount() {
        return parsed.sampleCount();
    }
}
