package io.perflab.runner.rpcbench;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Decides when throughput has stopped trending: the last {@link Warmup#SETTLED_WINDOWS} one-second windows
 * lie within {@link Warmup#SETTLED_SPREAD_PERCENT} % of their mean, i.e.
 * {@code (max − min) / mean ≤ 0.02}.
 */
final class SteadyState {

    private final int windows;
    private final double spread;
    private final Deque<Double> recent = new ArrayDeque<>();

    SteadyState() {
        this(Warmup.SETTLED_WINDOWS, Warmup.SETTLED_SPREAD_PERCENT / 100.0);
    }

    SteadyState(int windows, double spread) {
        this.windows = windows;
        this.spread = spread;
    }

    /** Adds one window's throughput; returns whether the last windows now agree. */
    boolean add(double throughput) {
        recent.addLast(throughput);
        if (recent.size() > windows) {
            recent.removeFirst();
        }
        return settled();
    }

    boolean settled() {
        if (recent.size() < windows) {
            return false;
        }
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        double sum = 0;
        for (double value : recent) {
            min = Math.min(min, value);
            max = Math.max(max, value);
            sum += value;
        }
        double mean = sum / recent.size();
        return mean > 0 && (max - min) / mean <= spread;
    }
}
