package io.perflab.runner.rpcbench;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * Decides when a figure has stopped trending: the last {@link Warmup#SETTLED_WINDOWS} one-second windows
 * lie within {@link Warmup#SETTLED_SPREAD_PERCENT} % of their mean, i.e.
 * {@code (max − min) / mean ≤ 0.02}. A warmup keeps one for throughput and one for CPU time per call.
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

    /** What {@link #describe} prints for a window without a figure: it had no completed call. */
    static final String NO_CALL = "(no call)";

    /** Adds one window's figure (NaN when the window had no call); returns whether the last windows now agree. */
    boolean add(double value) {
        recent.addLast(value);
        if (recent.size() > windows) {
            recent.removeFirst();
        }
        return settled();
    }

    /** Whether no window was added yet. */
    boolean isEmpty() {
        return recent.isEmpty();
    }

    boolean settled() {
        if (recent.size() < windows) {
            return false;
        }
        double spreadNow = spreadOfRecent();
        return spreadNow <= spread;
    }

    /** (max − min) / mean of the last windows; NaN when a window had no figure or the mean is not positive. */
    private double spreadOfRecent() {
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        double sum = 0;
        for (double value : recent) {
            min = Math.min(min, value);
            max = Math.max(max, value);
            sum += value;
        }
        double mean = sum / recent.size();
        return mean > 0 ? (max - min) / mean : Double.NaN;
    }

    /**
     * The last windows' figures and their spread, e.g. {@code 31250 31502 31010 (spread 1.6 %)}: the evidence
     * that the figure settled, or how far it was from settling. A window without a figure reads
     * {@value #NO_CALL}, and the spread is left out while one is among the last windows, or while there is one
     * window only.
     */
    String describe(String format) {
        StringJoiner values = new StringJoiner(" ");
        recent.forEach(v -> values.add(Double.isNaN(v) ? NO_CALL : String.format(Locale.ROOT, format, v)));
        // one window has no spread to speak of: "(spread 0.0 %)" would read as evidence of a settled figure
        double spreadNow = recent.size() < 2 ? Double.NaN : spreadOfRecent();
        return values + (Double.isNaN(spreadNow) ? ""
                : String.format(Locale.ROOT, " (spread %.1f %%)", 100 * spreadNow));
    }
}
