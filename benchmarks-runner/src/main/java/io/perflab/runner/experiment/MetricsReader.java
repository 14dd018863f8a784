package io.perflab.runner.experiment;

import io.perflab.runner.trial.ParsedMetric;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the metrics a command trial printed, in the format its {@link CommandVariant#metricsFormat()} names. The
 * runner decides when to read (after a run that exited 0) and what a failure means (a failed trial quoting the
 * output); the formats themselves live with whoever runs the runner — the service's upload adapters — so the runner
 * stays free of them.
 */
public interface MetricsReader {

    /** Reads nothing: every format is unknown. */
    MetricsReader NONE = new MetricsReader() {
        @Override
        public Set<String> formats() {
            return Set.of();
        }

        @Override
        public Reading read(String format, String output) {
            throw new IllegalArgumentException("this runner reads no metrics formats, so it cannot read '" + format
                    + "' output");
        }
    };

    /** The format names this reader knows. */
    Set<String> formats();

    /**
     * Reads {@code output}.
     *
     * @throws IllegalArgumentException if the output is not in the format, or a value is unusable, saying what was
     *     expected and found
     */
    Reading read(String format, String output);

    /**
     * Why a negative value of metric {@code key} in {@code unit}, as {@link #read} reads it from {@code format}
     * output, cannot be: the reading of such output refuses it (a Go {@code ns/op}, rpc-bench's requests per second,
     * JMH's primary score); empty where the format lets a metric's value be negative, or the format is unknown.
     * Metrics read elsewhere and sent on (an agent's trials) are held to it.
     */
    default Optional<String> negativeRefusal(String format, String key, String unit) {
        return Optional.empty();
    }

    /**
     * What a run printed.
     *
     * @param metrics metric key → unit, direction and values, in the order printed; at least one
     * @param details what the output said about how it ran (rpc-bench's mode and threads, JMH's JVM, Go's
     *     {@code goos}…), kept in the trial's environment
     */
    record Reading(Map<String, ParsedMetric> metrics, Map<String, String> details) {

        public Reading {
            metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
            details = details == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(details));
            if (metrics.isEmpty()) {
                throw new IllegalArgumentException("the output holds no metrics");
            }
        }
    }
}
