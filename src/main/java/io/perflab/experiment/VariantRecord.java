package io.perflab.experiment;

import io.perflab.runner.experiment.VariantName;
import io.perflab.system.ApiValues;
import io.swagger.v3.oas.annotations.media.Schema;
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
 * @param metricsFormat the format a command's output is read in, or null when it is not read
 * @param directory a command's working directory, or null for the server's
 * @param environment a command's environment variables; empty when it sets none
 */
public record VariantRecord(@ApiValues(value = VariantName.class, written = "label") String name,
                            @Schema(nullable = true) String label, Map<String, String> options,
                            List<String> jvmArgs, @Schema(nullable = true) String command,
                            @Schema(nullable = true) String metricsFormat, @Schema(nullable = true) String directory,
                            Map<String, String> environment) {
}
