package io.perflab.runner.rpcbench;

import io.perflab.runner.metering.KernelMeter;
import io.perflab.runner.metering.SyscallCounter;
import io.perflab.runner.trial.MetricKeys;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The counts an engine trial makes only where its host allows them, each with what turns it off and what says why
 * it is missing: the one place that tells a metric every trial measures from one that depends on the host.
 */
public enum HostCount {

    /** System calls per request, counted on a tracepoint where perf events may read it. */
    SYSCALLS("system calls", List.of(MetricKeys.SYSCALLS_PER_REQ), KernelMeter.SYSCALLS_PROPERTY,
            RpcBenchResult.SYSCALLS_NOT_COUNTED, SyscallCounter::unavailableReason),
    /** Instructions and cycles per request, counted with the CPU's hardware counters where the kernel grants them. */
    HARDWARE("instructions and cycles", MetricKeys.ENGINE_WHERE_COUNTED, KernelMeter.HARDWARE_PROPERTY,
            RpcBenchResult.HARDWARE_NOT_COUNTED, KernelMeter::hardwareNotCounted);

    private final String counted;

    private final List<String> metrics;
    private final String property;
    private final String notCountedKey;
    private final Supplier<Optional<String>> notCountedHere;

    HostCount(String counted, List<String> metrics, String property, String notCountedKey,
              Supplier<Optional<String>> notCountedHere) {
        this.counted = counted;
        this.metrics = metrics;
        this.property = property;
        this.notCountedKey = notCountedKey;
        this.notCountedHere = notCountedHere;
    }

    /** The count that gives {@code metric}; empty for a metric every trial measures. */
    public static Optional<HostCount> of(String metric) {
        return Arrays.stream(values()).filter(count -> count.metrics.contains(metric)).findFirst();
    }

    /** What it counts, for people: {@code system calls}, {@code instructions and cycles}. */
    public String counted() {
        return counted;
    }

    /** The metrics it gives ({@code syscalls_per_req}; {@code instructions_per_req}, {@code cycles_per_req}). */
    public List<String> metrics() {
        return metrics;
    }

    /** The trial JVM's system property that turns this count off with {@code false}. */
    public String property() {
        return property;
    }

    /** The trial environment's key that says why the count is missing. */
    public String notCountedKey() {
        return notCountedKey;
    }

    /** Why this host does not make this count, tried in this process; empty where it does. */
    public Optional<String> notCountedHere() {
        return notCountedHere.get();
    }
}
