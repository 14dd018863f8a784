package io.perflab.runner.rpcbench;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * One figure of a warmup's last {@link Warmup#QUIET_STEPS} one-second steps: the compiler's work, which decides
 * when an auto warmup ends, and calls per second and CPU time per call, which the trial records beside it as
 * evidence of where its figures stood.
 */
final class RecentSteps {

    private final int steps;
    private final Deque<Double> recent = new ArrayDeque<>();

    RecentSteps() {
        this(Warmup.QUIET_STEPS);
    }

    RecentSteps(int steps) {
        this.steps = steps;
    }

    /** Adds one step's figure (NaN when the step had no call), dropping the oldest once there are enough. */
    void add(double value) {
        recent.addLast(value);
        if (recent.size() > steps) {
            recent.removeFirst();
        }
    }

    /** Whether as many steps as it keeps have been added. */
    boolean full() {
        return recent.size() == steps;
    }

    /** The mean of the kept steps; NaN when there is none or one had no figure. */
    double mean() {
        return recent.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    /** The largest of the kept steps; NaN when there is none or one had no figure. */
    double max() {
        return recent.stream().mapToDouble(Double::doubleValue).reduce(Math::max).orElse(Double.NaN);
    }

    /** (max − min) / mean of the kept steps; NaN when a step had no figure or the mean is not positive. */
    private double spread() {
        double min = recent.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
        double mean = mean();
        return mean > 0 ? (max() - min) / mean : Double.NaN;
    }

    /** The kept steps' figures, oldest first, e.g. {@code 31250 31502 31010}. */
    String values(String format) {
        StringJoiner values = new StringJoiner(" ");
        recent.forEach(v -> values.add(String.format(Locale.ROOT, format, v)));
        return values.toString();
    }

    /**
     * The kept steps' figures and their spread, e.g. {@code 31250 31502 31010 (spread 1.6 %)}: where the figure
     * stood when the warmup ended.
     */
    String describe(String format) {
        double spreadNow = spread();
        return values(format) + (Double.isNaN(spreadNow) ? ""
                : String.format(Locale.ROOT, " (spread %.1f %%)", 100 * spreadNow));
    }
}
