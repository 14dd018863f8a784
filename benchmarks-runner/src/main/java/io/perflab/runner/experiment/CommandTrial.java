package io.perflab.runner.experiment;

import io.perflab.runner.metering.ResourceUsage;
import io.perflab.runner.trial.HostEnvironment;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.io.File;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * One run of a command variant: {@code /bin/sh -c command}, metered with {@code getrusage(RUSAGE_CHILDREN)} deltas,
 * so command runs must not overlap with other children of this JVM.
 */
final class CommandTrial {

    static final ProcessBuilder.Redirect NO_INPUT = ProcessBuilder.Redirect.from(new File("/dev/null"));

    private final TrialProcesses processes;
    private final Clock clock;
    private final LongSupplier nanoClock;

    CommandTrial(TrialProcesses processes, Clock clock, LongSupplier nanoClock) {
        this.processes = processes;
        this.clock = clock;
        this.nanoClock = nanoClock;
    }

    /** Runs {@code variant} once as the trial {@code ordinal} of {@code label}. */
    TrialResult run(CommandVariant variant, String label, int ordinal, Duration timeout) {
        List<String> command = List.of("/bin/sh", "-c", variant.command());
        Map<String, String> environment = new LinkedHashMap<>(HostEnvironment.capture());
        environment.remove("jvm_flags");
        environment.remove("jvm_version");
        environment.put("command", variant.command());
        Instant start = clock.instant();
        ResourceUsage before = ResourceUsage.children();
        long startNanos = nanoClock.getAsLong();
        Process process;
        try {
            process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(NO_INPUT).start();
        } catch (IOException e) {
            return notStarted(label, ordinal, start, clock, "could not start /bin/sh: " + e.getMessage());
        }
        OutputTail stderr = OutputTail.start(process.getErrorStream(), "trial-" + ordinal + "-stderr",
                line -> false);
        TrialProcesses.Ending ending = processes.await(process, timeout);
        long elapsedNanos = nanoClock.getAsLong() - startNanos;
        ResourceUsage usage = ResourceUsage.children().minus(before);
        TrialOutput.drain(stderr);
        Instant end = clock.instant();
        String tail = stderr.text();
        if (ending != TrialProcesses.Ending.EXITED) {
            return new TrialResult(label, ordinal, ending.status, start, end, process.pid(),
                    Map.of(), environment, ending.describe(timeout) + TrialOutput.suffix(tail));
        }
        int exit = process.exitValue();
        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put(MetricKeys.WALL_MS, elapsedNanos / 1e6);
        metrics.put(MetricKeys.USER_CPU_MS, usage.userMicros() / 1e3);
        metrics.put(MetricKeys.SYS_CPU_MS, usage.systemMicros() / 1e3);
        metrics.put(MetricKeys.CPU_MS, usage.cpuMicros() / 1e3);
        metrics.put(MetricKeys.CTX_SWITCHES, (double) usage.contextSwitches());
        metrics.put(MetricKeys.VOLUNTARY_CTX_SWITCHES, (double) usage.voluntaryContextSwitches());
        metrics.put(MetricKeys.INVOLUNTARY_CTX_SWITCHES, (double) usage.involuntaryContextSwitches());
        metrics.put(MetricKeys.EXIT_STATUS, (double) exit);
        TrialStatus status = exit == 0 ? TrialStatus.OK : TrialStatus.FAILED;
        String error = exit == 0 ? null : "command exited with status " + exit + TrialOutput.suffix(tail);
        return new TrialResult(label, ordinal, status, start, end, process.pid(), metrics, environment, error);
    }

    static TrialResult notStarted(String label, int ordinal, Instant start, Clock clock, String error) {
        return new TrialResult(label, ordinal, TrialStatus.FAILED, start, clock.instant(), -1, Map.of(), Map.of(),
                error);
    }
}
