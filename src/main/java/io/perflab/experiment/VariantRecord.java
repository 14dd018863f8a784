package io.perflab.experiment;

import java.util.List;
import java.util.Map;

/**
 * A stored variant.
 *
 * @param name {@code without} or {@code with}
 * @param label a user's label (uploads), may be null
 * @param options engine options, name → value (every option, as the engine describes them)
 * @param jvmArgs this variant's own JVM flags
 * @param command the shell command of a command experiment, else null
 */
public record VariantRecord(String name, String label, Map<String, String> options, List<String> jvmArgs,
                            String command) {
}
