package io.perflab.experiment;

import io.perflab.runner.rpcbench.RpcBenchResult;
import io.perflab.runner.trial.MetricKeys;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One comparison never mixes how user and system CPU were split: sampled by {@code cpu-clock} in some trials and
 * by the kernel's tick in others, a difference between the variants could be a difference between the methods.
 * Trials that sampled also recorded the tick split of the same window, so when the sources disagree, user and
 * system CPU per request are compared on the tick split of every trial. The total ({@code cpu_us_per_req}) is
 * exact either way and is left alone.
 */
final class CpuSplitSources {

    private CpuSplitSources() {
    }

    /** What the comparison says when the trials' sources disagree, e.g. "8 sampled, 4 tick"; empty when they agree. */
    static Optional<String> mixed(List<RunRecord> runs) {
        return mixedSplits(runs.stream().filter(RunRecord::ok).map(RunRecord::environment).toList());
    }

    /** As {@link #mixed}, of the environments of the runs that ended well. */
    static Optional<String> mixedSplits(Collection<Map<String, String>> okEnvironments) {
        Map<String, Long> sources = new TreeMap<>();
        okEnvironments.stream()
                .map(environment -> environment.get(RpcBenchResult.CPU_SPLIT_SOURCE))
                .filter(source -> source != null)
                .forEach(source -> sources.merge(source, 1L, Long::sum));
        if (sources.size() < 2) {
            return Optional.empty();
        }
        StringBuilder counts = new StringBuilder();
        sources.forEach((source, n) -> counts.append(counts.length() == 0 ? "" : ", ").append(n).append(' ')
                .append(source));
        return Optional.of("the trials split user and system CPU in different ways (" + counts + "); both variants "
                + "are compared on the kernel's tick split, which every trial recorded");
    }

    /** {@code runs} with user and system CPU per request on the tick split where a trial sampled them. */
    static List<RunRecord> onTickSplit(List<RunRecord> runs) {
        return runs.stream().map(CpuSplitSources::onTickSplit).toList();
    }

    private static RunRecord onTickSplit(RunRecord run) {
        if (!"sampled".equals(run.environment().get(RpcBenchResult.CPU_SPLIT_SOURCE))) {
            return run;
        }
        Map<String, Double> metrics = new LinkedHashMap<>(run.metrics());
        replace(metrics, MetricKeys.USER_CPU_US_PER_REQ,
                run.environment().get(RpcBenchResult.TICK_USER_CPU_US_PER_REQ));
        replace(metrics, MetricKeys.SYS_CPU_US_PER_REQ, run.environment().get(RpcBenchResult.TICK_SYS_CPU_US_PER_REQ));
        return new RunRecord(run.id(), run.variant(), run.ordinal(), run.status(), run.startedAt(), run.finishedAt(),
                run.pid(), run.environment(), run.error(), metrics, run.pair());
    }

    /**
     * A value of the samples export and the split it is on.
     *
     * @param value the value as the comparison takes it
     * @param split {@code sampled} or {@code tick} for user or system CPU per request; null for other metrics and for
     *     runs that recorded no split
     */
    record SplitValue(double value, String split) {
    }

    /**
     * The value {@code stored} of {@code metric} in a run whose environment is {@code environment}, as the comparison
     * takes it, with its split: where
     * {@code onTick} (the experiment's trials split user and system CPU in different ways, {@link #mixed}), a sampled
     * trial's user or system CPU is its tick figure. A sampled trial without a tick figure keeps its sampled value,
     * said as such: the export leaves no sample out, where the comparison leaves that one out.
     */
    static SplitValue asCompared(Map<String, String> environment, String metric, double stored, boolean onTick) {
        String source = environment.get(RpcBenchResult.CPU_SPLIT_SOURCE);
        if (!splitMetric(metric) || source == null) {
            return new SplitValue(stored, null);
        }
        if (onTick && "sampled".equals(source)) {
            String tick = environment.get(metric.equals(MetricKeys.USER_CPU_US_PER_REQ)
                    ? RpcBenchResult.TICK_USER_CPU_US_PER_REQ : RpcBenchResult.TICK_SYS_CPU_US_PER_REQ);
            try {
                return new SplitValue(Double.parseDouble(tick), "tick");
            } catch (NullPointerException | NumberFormatException noTickFigure) {
                return new SplitValue(stored, source);
            }
        }
        return new SplitValue(stored, source);
    }

    /**
     * The tick figure in place of the sampled one, or the metric left out when the trial has none; nothing where the
     * run was read without that metric.
     */
    private static void replace(Map<String, Double> metrics, String key, String tick) {
        if (!metrics.containsKey(key)) {
            return;
        }
        try {
            metrics.put(key, Double.parseDouble(tick));
        } catch (NullPointerException | NumberFormatException e) {
            metrics.remove(key);
        }
    }

    /** Whether {@code key} is one of the split's two halves. */
    static boolean splitMetric(String key) {
        return key.equals(MetricKeys.USER_CPU_US_PER_REQ) || key.equals(MetricKeys.SYS_CPU_US_PER_REQ);
    }
}
