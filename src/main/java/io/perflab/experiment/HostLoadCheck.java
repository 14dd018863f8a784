package io.perflab.experiment;

import io.perflab.runner.trial.HostEnvironment;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The warning of a host that other work kept busy, with the rule and text of {@code perflab ab}'s
 * ({@link HostEnvironment.LoadAverage#warning}), from what the experiment's trials recorded. That rule holds for a load
 * read before the benchmark starts: a trial's own threads alone give a 1-minute load average of 7 to 16 on two CPUs,
 * and keep it high for minutes after they end. So it is judged on the load the experiment's first trial read as it
 * started, before its own threads ran ({@code load_average}, with {@code cpu_count}); every later trial's holds the
 * earlier trials' threads. It says nothing when the agent that ran that trial had ended another experiment less than
 * {@link #AFTER_ANOTHER_EXPERIMENT} before: that experiment's threads were still in the average, which could not tell
 * them from other work. In a duet, {@code cpu_count} is the trial's half of the host's CPUs.
 */
final class HostLoadCheck {

    /**
     * How long another experiment's threads stay in the 1-minute average: it decays by e^(−t / 60 s), so a load of
     * 20 falls below 0.5 after 3.7 minutes.
     */
    static final Duration AFTER_ANOTHER_EXPERIMENT = Duration.ofMinutes(5);

    /** When the load was read, as the warning says it. */
    static final String MEASURED = " as the experiment's first trial started, before its benchmark threads ran";

    private HostLoadCheck() {
    }

    /**
     * The warning, e.g. {@code load average 3.52 on 2 CPUs as the experiment's first trial started, before its
     * benchmark threads ran: other work competes with the benchmark, expect noisy figures}; empty when the load was not
     * high, when no trial recorded it, or when another experiment had just ended on the host.
     */
    static Optional<String> warning(Optional<ExperimentRepository.FirstTrial> first) {
        if (first.isEmpty()) {
            return Optional.empty();
        }
        ExperimentRepository.FirstTrial trial = first.get();
        if (trial.hostLastBusy() != null
                && trial.hostLastBusy().plus(AFTER_ANOTHER_EXPERIMENT).isAfter(trial.startedAt())) {
            return Optional.empty();
        }
        int cpus;
        try {
            cpus = Integer.parseInt(trial.environment().getOrDefault("cpu_count", "").strip());
        } catch (NumberFormatException noCount) {
            return Optional.empty();
        }
        return HostEnvironment.LoadAverage.parse(trial.environment().get("load_average"))
                .flatMap(load -> load.warning(cpus, MEASURED))
                .map(warning -> warning + " (each trial's load_average is in the environment)");
    }

    /** {@code comparisons}, each with {@code warning} when there is one. */
    static List<MetricComparison> withWarning(List<MetricComparison> comparisons, Optional<String> warning) {
        return warning.map(w -> comparisons.stream().map(c -> c.withWarning(w)).toList()).orElse(comparisons);
    }
}
