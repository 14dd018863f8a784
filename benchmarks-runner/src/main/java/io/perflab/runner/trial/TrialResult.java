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
 */
@JsonPropertyOrder({"variant", "ordinal", "pair", "status", "pid", "start", "end", "metrics", "environment", "error"})
public record TrialResult(String variant, int ordinal, TrialStatus status, Instant start, Instant end, long pid,
                          Map<String, Double> metrics, Map<String, String> environment, String error,
                          @JsonInclude(JsonInclude.Include.NON_NULL) PairPosition pair) {

    public TrialResult {
        Objects.requireNonNull(variant, "variant");
        Objects.requireNonNull(status, "status");
        metrics = metrics == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
        environment = environment == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(environment));
    }

    /** A trial of the fresh design: a whole trial JVM (or command run), no pair. */
    public TrialResult(String variant, int ordinal, TrialStatus status, Instant start, Instant end, long pid,
                       Map<String, Double> metrics, Map<String, String> environment, String error) {
        this(variant, ordinal, status, start, end, pid, metrics, environment, error, null);
    }

    /** This result placed in a pair of a paired design. */
    public TrialResult withPair(PairPosition position) {
        return new TrialResult(variant, ordinal, status, start, end, pid, metrics, environment, error, position);
    }

    @JsonIgnore
    public boolean ok() {
        return status == TrialStatus.OK;
    }
}
