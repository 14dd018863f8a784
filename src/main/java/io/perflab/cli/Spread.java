package io.perflab.cli;

import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.rpcbench.RpcBenchResult;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.TrialResult;
import io.perflab.stats.Summary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * How much a headline metric moves from one measurement to the next, over successful trials (or the windows of
 * one JVM): mean, coefficient of variation, and the floor that sampling the split of user from system time (the
 * kernel's tick, or cpu-clock samples) puts under the CV of user and system CPU
 * ({@link RpcBenchResult#USER_SAMPLING_ERROR}).
 *
 * @param metric the metric key
 * @param n how many finite values the metric has
 * @param mean their mean
 * @param sd their standard deviation (n − 1)
 * @param floorPercent the median over the trials of the sampling floor they recorded, in percent; NaN where the
 *     metric has none or the split is exact or unknown
 */
record Spread(String metric, int n, double mean, double sd, double floorPercent) {

    /**
     * User CPU per request by the kernel's tick split of the same window, which a trial with a sampled split records
     * in its environment: its spread beside the sampled one shows what sampling the split gains.
     */
    static final String TICK_USER = RpcBenchResult.TICK_USER_CPU_US_PER_REQ;

    /**
     * The headline metrics, then those whose spread a calibration of the instrument also wants to know (the tick
     * split's user CPU only where trials sampled theirs).
     */
    static final List<String> METRICS = Stream.concat(MetricKeys.HEADLINE.stream(),
            Stream.of(TICK_USER, MetricKeys.CPU_US_PER_REQ, MetricKeys.ALLOC_BYTES_PER_REQ,
                    MetricKeys.LATENCY_P50_US, MetricKeys.LATENCY_P99_US)).toList();

    /** Per metric, the trial environment entry that holds the sampling floor of its CV, in percent. */
    private static final Map<String, String> FLOORS = Map.of(
            MetricKeys.USER_CPU_US_PER_REQ, RpcBenchResult.USER_SAMPLING_ERROR,
            MetricKeys.SYS_CPU_US_PER_REQ, RpcBenchResult.SYS_SAMPLING_ERROR);

    /** The spread of every headline metric with at least two values in the successful {@code trials}. */
    static List<Spread> of(List<TrialResult> trials) {
        List<Spread> rows = new ArrayList<>();
        for (String metric : METRICS) {
            double[] all = values(trials, metric, null, 0, Integer.MAX_VALUE);
            if (all.length < 2) {
                continue;
            }
            Summary summary = Summary.of(all, metric);
            rows.add(new Spread(metric, summary.n(), summary.mean(), summary.sd(), floor(trials, metric)));
        }
        return rows;
    }

    /** sd / |mean|. */
    double cv() {
        return sd / Math.abs(mean);
    }

    /**
     * The values of {@code metric} in successful trials with ordinals in [from, to), of one variant or of all
     * (variant null).
     */
    static double[] values(List<TrialResult> trials, String metric, VariantName variant, int from, int to) {
        return trials.stream()
                .filter(t -> t.ok() && t.ordinal() >= from && t.ordinal() < to
                        && (variant == null || t.variant().equals(variant.label())))
                .map(t -> value(t, metric))
                .filter(v -> v != null && Double.isFinite(v))
                .mapToDouble(Double::doubleValue)
                .toArray();
    }

    private static Double value(TrialResult trial, String metric) {
        Double value = trial.metrics().get(metric);
        if (value == null && metric.equals(TICK_USER)) {
            return number(trial.environment().get(TICK_USER));
        }
        return value;
    }

    /** An environment entry as a number, or null when it is missing or not a figure: left out like a missing one. */
    static Double number(String text) {
        if (text == null) {
            return null;
        }
        try {
            return Double.valueOf(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * The sentence under a table with a floor column, where the trials recorded a floor: what it is and what
     * lowers it.
     */
    static Optional<String> floorNote(List<TrialResult> trials) {
        boolean sampled = trials.stream()
                .anyMatch(t -> t.ok() && t.environment().containsKey(RpcBenchResult.USER_SAMPLING_ERROR));
        if (!sampled) {
            return Optional.empty();
        }
        List<String> sources = trials.stream().filter(TrialResult::ok)
                .map(t -> t.environment().getOrDefault(RpcBenchResult.CPU_SPLIT_SOURCE, "tick")).distinct().toList();
        if (sources.equals(List.of("sampled"))) {
            String rate = first(trials, RpcBenchResult.CPU_SPLIT_RATE_HZ, "?");
            return Optional.of("floor: the CV that sampling the split of user from system time gives by itself "
                    + "(cpu_split_source=sampled: cpu-clock samples at " + rate + " Hz on each CPU); no quieter "
                    + "machine goes below it, only more samples per window do. User + system (cpu_us_per_req) is "
                    + "exact.\n");
        }
        String accounting = first(trials, "cpu_time_accounting", "tick");
        return Optional.of("floor: the CV that the kernel's split of user from system time gives by itself (it "
                + "samples the split at each timer tick: " + accounting + "); no quieter machine goes below it, only "
                + "more CPU time per window does. User + system (cpu_us_per_req) is exact.\n"
                + (sources.size() > 1 ? "The trials' splits come from different sources (cpu_split_source "
                + String.join(", ", sources) + "): their user and system figures are not comparable.\n" : ""));
    }

    private static String first(List<TrialResult> trials, String key, String otherwise) {
        return trials.stream().map(t -> t.environment().get(key)).filter(v -> v != null).findFirst()
                .orElse(otherwise);
    }

    /** A percentage with two decimals, or blank when not finite. */
    static String percent(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.2f%%", value) : "";
    }

    /** The median over successful trials of the sampling floor they recorded for {@code metric}. */
    private static double floor(List<TrialResult> trials, String metric) {
        String key = FLOORS.get(metric);
        if (key == null) {
            return Double.NaN;
        }
        double[] floors = trials.stream().filter(TrialResult::ok).map(t -> number(t.environment().get(key)))
                .filter(v -> v != null && Double.isFinite(v)).mapToDouble(Double::doubleValue).toArray();
        return floors.length == 0 ? Double.NaN : Summary.of(floors, key).median();
    }
}
