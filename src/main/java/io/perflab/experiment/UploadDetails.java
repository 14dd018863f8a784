package io.perflab.experiment;

import io.perflab.display.Format;
import io.perflab.runner.experiment.VariantName;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * What an uploaded experiment's benchmark tool said besides its samples, as the experiment page and the report
 * show it. Experiments that PerfLab ran have none of it: their runs record their environment instead.
 *
 * @param machine what the tool said about the machine and runtime (Go's {@code goos}, {@code goarch},
 *     {@code cpu}; Google Benchmark's {@code host_name}, {@code num_cpus}, {@code library_build_type}; JMH's
 *     {@code jdkVersion}…), each value as text
 * @param warnings what people should know about the numbers (a debug build, runs that exited non-zero)
 * @param configuration per side ({@code without}, {@code with}), the settings its samples ran with
 */
public record UploadDetails(Map<String, String> machine, List<String> warnings,
                            Map<String, Map<String, String>> configuration) {

    /** Nothing said. */
    public static final UploadDetails NONE = new UploadDetails(Map.of(), List.of(), Map.of());

    public UploadDetails {
        machine = Collections.unmodifiableMap(new LinkedHashMap<>(machine));
        warnings = List.copyOf(warnings);
        configuration = Collections.unmodifiableMap(new LinkedHashMap<>(configuration));
    }

    public boolean isEmpty() {
        return machine.isEmpty() && warnings.isEmpty() && configuration.isEmpty();
    }

    /** The value of setting {@code name} on {@code side}, or a dash. */
    public String setting(String side, String name) {
        return configuration.getOrDefault(side, Map.of()).getOrDefault(name, Format.MISSING);
    }

    /** The settings' names across both sides, in the order the sides list them. */
    public List<String> settings() {
        LinkedHashSet<String> names = new LinkedHashSet<>();
        for (VariantName side : VariantName.values()) {
            names.addAll(configuration.getOrDefault(side.label(), Map.of()).keySet());
        }
        return List.copyOf(names);
    }
}
