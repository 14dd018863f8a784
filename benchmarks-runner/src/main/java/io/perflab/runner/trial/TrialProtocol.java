package io.perflab.runner.trial;

import io.perflab.runner.json.Json;
import io.perflab.runner.json.JsonException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How a forked trial hands its result to the runner: one line on standard output, the prefix {@value #PREFIX}
 * followed by a JSON object {@code {"metrics":{…},"environment":{…}}}. Anything else the trial prints (logging,
 * JVM warnings) is ignored, so log noise cannot be mistaken for a result.
 */
public final class TrialProtocol {

    public static final String PREFIX = "PERFLAB-TRIAL-RESULT ";

    private TrialProtocol() {
    }

    /** The result line of a trial. */
    public static String encode(Map<String, Double> metrics, Map<String, String> environment) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("metrics", metrics);
        json.put("environment", environment);
        return PREFIX + Json.write(json);
    }

    /** The report in {@code line}, if it is a result line; a malformed result line throws. */
    public static Optional<Report> decode(String line) {
        if (!line.startsWith(PREFIX)) {
            return Optional.empty();
        }
        Map<String, Object> json;
        try {
            json = Json.parseObject(line.substring(PREFIX.length()));
        } catch (JsonException e) {
            throw new IllegalArgumentException("malformed trial result: " + e.getMessage(), e);
        }
        Map<String, Double> metrics = new LinkedHashMap<>();
        if (json.get("metrics") instanceof Map<?, ?> m) {
            m.forEach((k, v) -> metrics.put(String.valueOf(k), v instanceof Number n ? n.doubleValue() : Double.NaN));
        }
        Map<String, String> environment = new LinkedHashMap<>();
        if (json.get("environment") instanceof Map<?, ?> e) {
            e.forEach((k, v) -> environment.put(String.valueOf(k), v == null ? null : String.valueOf(v)));
        }
        return Optional.of(new Report(metrics, environment));
    }

    /** What a trial reports about itself. */
    public record Report(Map<String, Double> metrics, Map<String, String> environment) {
    }
}
