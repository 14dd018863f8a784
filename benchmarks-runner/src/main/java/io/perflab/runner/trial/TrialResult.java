package io.perflab.runner.trial;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One finished trial of an experiment, successful or not.
 *
 * @param variant {@code "without"} (baseline) or {@code "with"} (the change); in a {@code MultiVariantPlan}, the
 *     variant's name (e.g. the stack)
 * @param ordinal position of the trial in the experiment's plan, from 0
 * @param status how it ended
 * @param start when the trial's process was started
 * @param end when it ended (or was killed)
 * @param pid the trial process's id, or -1 if it never started
 * @param metrics metric key → value ({@link MetricKeys}); empty or partial unless {@link TrialStatus#OK}
 * @param environment what the trial ran on and with (JVM, engine options, workload, host, load…)
 * @param error what went wrong, with the tail of the process's error output; null when OK
 */
public record TrialResult(String variant, int ordinal, TrialStatus status, Instant start, Instant end, long pid,
                          Map<String, Double> metrics, Map<String, String> environment, String error) {

    public TrialResult {
        Objects.requireNonNull(variant, "variant");
        Objects.requireNonNull(status, "status");
        metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
        environment = Collections.unmodifiableMap(new LinkedHashMap<>(environment));
    }

    public boolean ok() {
        return status == TrialStatus.OK;
    }

    /** The JSON object of this result: {@code variant, ordinal, status, pid, start, end, metrics, environment, error}. */
    public Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("variant", variant);
        json.put("ordinal", ordinal);
        json.put("status", status.name());
        json.put("pid", pid);
        json.put("start", start == null ? null : start.toString());
        json.put("end", end == null ? null : end.toString());
        json.put("metrics", metrics);
        json.put("environment", environment);
        json.put("error", error);
        return json;
    }

    /** Reads what {@link #toJson()} wrote. */
    public static TrialResult fromJson(Map<String, Object> json) {
        Map<String, Double> metrics = new LinkedHashMap<>();
        if (json.get("metrics") instanceof Map<?, ?> m) {
            m.forEach((k, v) -> {
                if (v instanceof Number n) {
                    metrics.put(String.valueOf(k), n.doubleValue());
                }
            });
        }
        Map<String, String> environment = new LinkedHashMap<>();
        if (json.get("environment") instanceof Map<?, ?> e) {
            e.forEach((k, v) -> environment.put(String.valueOf(k), v == null ? null : String.valueOf(v)));
        }
        return new TrialResult(String.valueOf(json.get("variant")), ((Number) json.get("ordinal")).intValue(),
                TrialStatus.valueOf(String.valueOf(json.get("status"))), instant(json.get("start")),
                instant(json.get("end")), json.get("pid") instanceof Number p ? p.longValue() : -1,
                metrics, environment, json.get("error") == null ? null : String.valueOf(json.get("error")));
    }

    private static Instant instant(Object value) {
        return value == null ? null : Instant.parse(String.valueOf(value));
    }
}
