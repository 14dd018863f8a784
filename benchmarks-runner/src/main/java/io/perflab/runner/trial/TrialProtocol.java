package io.perflab.runner.trial;

import io.perflab.runner.json.RunnerJson;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;

/**
 * How a forked trial hands its result to the runner: one line on standard output, the prefix {@value #PREFIX}
 * followed by a JSON {@link Report} {@code {"metrics":{…},"environment":{…}}}. Anything else the trial prints
 * (logging, JVM warnings) is ignored, so log noise cannot be mistaken for a result.
 */
public final class TrialProtocol {

    public static final String PREFIX = "PERFLAB-TRIAL-RESULT ";

    private TrialProtocol() {
    }

    /** The result line of a trial; metrics that are not finite are left out (JSON has no NaN). */
    public static String encode(Map<String, Double> metrics, Map<String, String> environment) {
        Map<String, Double> finite = new LinkedHashMap<>();
        metrics.forEach((key, value) -> {
            if (value != null && Double.isFinite(value)) {
                finite.put(key, value);
            }
        });
        return PREFIX + RunnerJson.mapper().writeValueAsString(new Report(finite, environment));
    }

    /** The report in {@code line}, if it is a result line; a malformed result line throws. */
    public static Optional<Report> decode(String line) {
        if (!line.startsWith(PREFIX)) {
            return Optional.empty();
        }
        try {
            return Optional.of(RunnerJson.mapper().readValue(line.substring(PREFIX.length()), Report.class));
        } catch (JacksonException e) {
            throw new IllegalArgumentException("malformed trial result: " + e.getOriginalMessage(), e);
        }
    }

    /** What a trial reports about itself. */
    public record Report(Map<String, Double> metrics, Map<String, String> environment) {

        public Report {
            metrics = Map.copyOf(metrics);
            environment = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        }
    }
}
