package io.perflab.upload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a format adapter read from an upload, before validation.
 *
 * @param benchmark the benchmark's name, or null when the content does not say (the caller must then)
 * @param name the experiment's title, or null
 * @param variants {@code without} and/or {@code with}, each with its metrics
 * @param git the commit measured
 * @param machine free-form description of the machine
 * @param tags free-form labels
 */
public record ParsedUpload(String benchmark, String name, Map<String, VariantSamples> variants, GitInfo git,
                           Map<String, Object> machine, List<String> tags) {

    public static final String WITHOUT = "without";
    public static final String WITH = "with";

    public ParsedUpload {
        variants = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(variants));
        git = git == null ? GitInfo.NONE : git;
        machine = machine == null ? Map.of() : machine;
        tags = tags == null ? List.of() : List.copyOf(tags);
    }

    /** An upload of one side only (harness output), stored as {@code variant}. */
    static ParsedUpload single(String benchmark, String variant, String label, Map<String, MetricSamples> metrics) {
        return new ParsedUpload(benchmark, null, Map.of(variant, new VariantSamples(label, metrics)), null, null,
                null);
    }

    boolean bothVariants() {
        return variants.containsKey(WITHOUT) && variants.containsKey(WITH);
    }

    int sampleCount() {
        return variants.values().stream().mapToInt(VariantSamples::sampleCount).sum();
    }
}
