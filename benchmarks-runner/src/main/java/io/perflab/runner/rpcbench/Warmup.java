package io.perflab.runner.rpcbench;

import java.time.Duration;
import java.util.Locale;

/**
 * How long a trial warms up before its measured window.
 *
 * <p>A fixed warmup runs the workload for a set time. An {@code auto} warmup runs it in one-second windows until
 * throughput stops trending: the last {@value #SETTLED_WINDOWS} windows lie within {@value #SETTLED_SPREAD_PERCENT}
 * % of their mean (max − min ≤ 2 % of the mean) and the JIT compiled for at most 10 ms in the last of them,
 * capped by {@code max}. Comparing one stack mid-JIT with
 * another at steady state would measure the JIT, not the stack (DESIGN, "Measuring fairly").
 *
 * @param auto whether to warm up until steady
 * @param duration the fixed warmup, or the cap of an auto warmup
 */
public record Warmup(boolean auto, Duration duration) {

    /** Consecutive one-second windows that must agree for an auto warmup to end. */
    public static final int SETTLED_WINDOWS = 3;
    /** Largest spread of those windows, in percent of their mean. */
    public static final double SETTLED_SPREAD_PERCENT = 2.0;
    /** The cap of {@code auto} without an explicit one. */
    public static final Duration DEFAULT_AUTO_MAX = Duration.ofSeconds(30);

    public Warmup {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("--warmup-seconds must not be negative, got " + seconds(duration));
        }
    }

    public static Warmup fixed(Duration duration) {
        return new Warmup(false, duration);
    }

    public static Warmup auto(Duration max) {
        return new Warmup(true, max);
    }

    /**
     * Parses {@code 5}, {@code 0.5}, {@code auto} or {@code auto:20} (auto with a 20-second cap).
     *
     * @throws IllegalArgumentException naming {@code --warmup-seconds} and the accepted forms
     */
    public static Warmup parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("auto")) {
            return auto(DEFAULT_AUTO_MAX);
        }
        if (t.startsWith("auto:")) {
            return auto(Durations.parseSeconds("--warmup-seconds", t.substring(5)));
        }
        try {
            return fixed(Durations.parseSeconds("--warmup-seconds", t));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--warmup-seconds must be a number of seconds ≥ 0, 'auto' or "
                    + "'auto:MAX', got '" + text + "'");
        }
    }

    /** The form {@link #parse} reads. */
    @Override
    public String toString() {
        return auto ? "auto:" + seconds(duration) : seconds(duration);
    }

    private static String seconds(Duration d) {
        return Durations.formatSeconds(d);
    }
}
