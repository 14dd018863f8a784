package io.perflab.cli;

import io.perflab.runner.rpcbench.Stack;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.TrialResult;
import io.perflab.stats.Comparison;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.ComparisonResult;
import io.perflab.stats.Direction;
import io.perflab.stats.Display;
import io.perflab.stats.Summary;
import io.perflab.stats.RelativeChange;
import io.perflab.stats.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The end of {@code perflab peers}: per headline metric the mean of each stack, then the engine's ratio to
 * gRPC-java and to bare Netty with the 95 % interval of the ratio of means (Fieller's, through
 * {@link Comparison}'s relative change) and Welch's p-value; then the goals of the comparison, each met only when
 * its whole interval is on the right side.
 */
final class PeersSummary {

    /** The metrics of the table, in order. */
    static final List<String> METRICS = List.of(MetricKeys.REQS_PER_SEC, MetricKeys.USER_CPU_US_PER_REQ,
            MetricKeys.SYS_CPU_US_PER_REQ, MetricKeys.CPU_US_PER_REQ, MetricKeys.CTX_SWITCHES_PER_REQ,
            MetricKeys.ALLOC_BYTES_PER_REQ, MetricKeys.LATENCY_P99_US);

    /**
     * A goal of the engine against a peer.
     *
     * @param text what is claimed
     * @param peer the stack compared against
     * @param metric the metric whose ratio perflab/peer is judged
     * @param bound the ratio's bound
     * @param atLeast whether the ratio must be ≥ the bound (else ≤)
     */
    record Goal(String text, Stack peer, String metric, double bound, boolean atLeast) {
    }

    /** The goals of the engine-against-its-peers comparison. */
    static final List<Goal> GOALS = List.of(
            new Goal("perflab requests/s >= 1.5 x grpc", Stack.GRPC, MetricKeys.REQS_PER_SEC, 1.5, true),
            new Goal("perflab CPU per request <= 0.7 x grpc", Stack.GRPC, MetricKeys.CPU_US_PER_REQ, 0.7, false),
            new Goal("perflab requests/s >= 0.85 x netty", Stack.NETTY, MetricKeys.REQS_PER_SEC, 0.85, true));

    private static final List<Stack> PEERS = List.of(Stack.GRPC, Stack.NETTY);
    private static final String ROW = "%-22s %11s %11s %11s  %-26s %-10s  %-26s %-10s%n";

    private PeersSummary() {
    }

    static String format(List<TrialResult> results) {
        ComparisonOptions options = ComparisonOptions.defaults();
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "Successful trials: perflab %d, grpc %d, netty %d%n",
                count(results, Stack.PERFLAB), count(results, Stack.GRPC), count(results, Stack.NETTY)));
        s.append(String.format(Locale.ROOT, ROW, "metric", "perflab", "grpc", "netty", "perflab/grpc [95% CI]",
                "p", "perflab/netty [95% CI]", "p"));
        for (String metric : METRICS) {
            List<String> cells = new ArrayList<>();
            cells.add(metric);
            for (Stack stack : Stack.values()) {
                double[] values = values(results, stack, metric);
                cells.add(values.length == 0 ? "-" : Display.value(Summary.of(values, stack.label()).mean()).strip());
            }
            for (Stack peer : PEERS) {
                Ratio ratio = ratio(results, metric, peer, options);
                cells.add(ratio.text());
                cells.add(ratio.p());
            }
            s.append(String.format(Locale.ROOT, ROW, cells.toArray()));
        }
        s.append("Ratios are mean(perflab)/mean(peer) with Fieller's 95% interval; p is Welch's two-sided "
                + "p-value, not adjusted across metrics.\n");
        s.append("Goals (a goal is met when its whole interval is on its side, missed when the whole interval is "
                + "on the other):\n");
        for (Goal goal : GOALS) {
            Ratio ratio = ratio(results, goal.metric(), goal.peer(), options);
            s.append(String.format(Locale.ROOT, "  %-40s %-26s %s%n", goal.text(), ratio.text(), judge(goal, ratio)));
        }
        s.append("Per-request CPU and context switches cover client and server threads of each trial JVM, less the "
                + "JIT compiler threads.\n");
        return s.toString();
    }

    /** The ratio perflab/peer of a metric; empty bounds when it cannot be computed, with the reason. */
    record Ratio(double estimate, double low, double high, double pValue, String problem) {

        String text() {
            if (problem != null) {
                return "n/a (" + problem + ")";
            }
            return String.format(Locale.ROOT, "%s [%s, %s]", number(estimate), number(low), number(high));
        }

        String p() {
            return problem != null ? "" : Display.pValue(pValue).strip();
        }

        private static String number(double value) {
            return Double.isInfinite(value) ? (value > 0 ? "+inf" : "-inf")
                    : String.format(Locale.ROOT, "%.3f", value);
        }
    }

    static Ratio ratio(List<TrialResult> results, String metric, Stack peer, ComparisonOptions options) {
        double[] engine = values(results, Stack.PERFLAB, metric);
        double[] other = values(results, peer, metric);
        if (engine.length < 2 || other.length < 2) {
            return new Ratio(Double.NaN, Double.NaN, Double.NaN, Double.NaN, "n < 2");
        }
        ComparisonResult comparison;
        try {
            Direction direction = MetricKeys.lowerIsBetter(metric) ? Direction.LOWER_IS_BETTER
                    : Direction.HIGHER_IS_BETTER;
            comparison = Comparison.compare(Sample.of(engine), Sample.of(other), direction, options);
        } catch (IllegalArgumentException e) {
            return new Ratio(Double.NaN, Double.NaN, Double.NaN, Double.NaN, e.getMessage());
        }
        Optional<RelativeChange> change = comparison.relativeChange();
        if (change.isEmpty()) {
            return new Ratio(Double.NaN, Double.NaN, Double.NaN, Double.NaN, peer.label() + " mean is 0");
        }
        RelativeChange c = change.get();
        return new Ratio(1 + c.percent() / 100, 1 + c.ciLowPercent() / 100, 1 + c.ciHighPercent() / 100,
                comparison.welch().pValue(), null);
    }

    static String judge(Goal goal, Ratio ratio) {
        if (ratio.problem() != null) {
            return "not judged";
        }
        boolean met = goal.atLeast() ? ratio.low() >= goal.bound() : ratio.high() <= goal.bound();
        boolean missed = goal.atLeast() ? ratio.high() < goal.bound() : ratio.low() > goal.bound();
        String gap = String.format(Locale.ROOT, " (estimate %.3f vs %s %.2f)", ratio.estimate(),
                goal.atLeast() ? ">=" : "<=", goal.bound());
        return (met ? "met" : missed ? "MISSED" : "not settled") + gap;
    }

    private static long count(List<TrialResult> results, Stack stack) {
        return results.stream().filter(r -> r.ok() && r.variant().equals(stack.label())).count();
    }

    private static double[] values(List<TrialResult> results, Stack stack, String metric) {
        return results.stream()
                .filter(r -> r.ok() && r.variant().equals(stack.label()) && r.metrics().get(metric) != null
                        && Double.isFinite(r.metrics().get(metric)))
                .mapToDouble(r -> r.metrics().get(metric))
                .toArray();
    }
}
