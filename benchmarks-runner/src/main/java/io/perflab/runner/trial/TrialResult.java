package io.perflab.runner.trial;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
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
 * @param pair in a paired design, the pair and window this result belongs to; null in the fresh design, where a
 *     result is a whole trial (and the experiment file leaves it out)
 * @param parsedMetrics a command trial whose variant names an output format: the metrics read from its output,
 *     with unit, direction and every value ({@code metrics} holds each one's mean); empty otherwise
 */
@JsonPropertyOrder({"variant", "ordinal", "pair", "status", "pid", "start", "end", "metrics", "parsedMetrics",
        "environment", "error"})
public record TrialResult(String variant, int ordinal, TrialStatus status, Instant start, Instant end, long pid,
                          Map<String, Double> metrics, Map<String, String> environment, String error,
                          @JsonInclude(JsonInclude.Include.NON_NULL) PairPosition pair,
                          @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, ParsedMetric> parsedMetrics) {

    public TrialResult {
        Objects.requireNonNull(variant, "variant");
        Objects.requireNonNull(status, "status");
        metrics = metrics == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
        environment = environment == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        parsedMetrics = parsedMetrics == null ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(parsedMetrics));
    }

    /** A result with no metrics read from output. */
    public TrialResult(String variant, int ordinal, TrialStatus status, Instant start, Instant end, long pid,
                       Map<String, Double> metrics, Map<String, String> environment, String error,
                       PairPosition pair) {
        this(variant, ordinal, status, start, end, pid, metrics, environment, error, pair, null);
    }

    /** A trial of the fresh design: a whole trial JVM (or command run), no pair. */
    public TrialResult(String variant, int ordinal, TrialStatus status, Instant start, Instant end, long pid,
                       Map<String, Double> metrics, Map<String, String> environment, String error) {
        this(variant, ordinal, status, start, end, pid, metrics, environment, error, null);
    }

    /** This result placed in a pair of a paired design. */
    public TrialResult withPair(PairPosition position) {
        return new TrialResult(variant, ordinal, status, start, end, pid, metrics, environment, error, position,
                parsedMetrics);
    }

    /** This result with {@code replaced} as its metrics. */
    public TrialResult withMetrics(Map<String, Double> replaced) {
        return new TrialResult(variant, ordinal, status, start, end, pid, replaced, environment, error, pair,
                parsedMetrics);
    }

    /**
     * Whether a higher value of {@code key} is better: as the output's format said for a metric read from it, else
     * as {@link MetricKeys#lowerIsBetter} says.
     */
    public boolean higherIsBetter(String key) {
        ParsedMetric parsed = parsedMetrics.get(key);
        return parsed != null ? parsed.higherIsBetter() : !MetricKeys.lowerIsBetter(key);
    }

    @JsonIgnore
    public boolean ok() {
        return status == TrialStatus.OK;
    }
}
