package io.perflab.history;

import java.util.Map;
import java.util.Optional;

/**
 * How a figure stored in one unit reads in another unit of the same dimension: times ({@code ns}, {@code us},
 * {@code ms}, {@code s}), times per something ({@code ns/op}, {@code us/op}) and rates of something per time
 * ({@code ops/ns}, {@code op/s}, {@code B/s}). A time per something converts only to a time per the same thing, a
 * rate only to a rate of the same thing ({@code op} and {@code ops} are one thing); anything else does not convert,
 * in particular a time and a rate (they are reciprocals, with opposite directions).
 *
 * <p>The time units are those the upload formats write: JMH's {@code ns}, {@code us}, {@code ms}, {@code s},
 * {@code min}, {@code hr}, {@code day} (alone or in {@code us/op}, {@code ops/ms}), Go's {@code ns/op}, Google
 * Benchmark's {@code time_unit}, hyperfine's seconds, rpc-bench's {@code us} and {@code ms}; uploads of PerfLab's
 * own JSON or CSV may also write {@code µs} (micro sign or Greek mu) or {@code sec}. Spellings are matched exactly:
 * {@code MS} is no unit here.
 *
 * <p>Public for uploads, whose comparison with an earlier upload converts that upload's figures as the history does.
 */
public final class UnitConversion {

    /** Nanoseconds in each time unit: whole numbers, so that a ratio of two is the nearest double to it. */
    private static final Map<String, Long> NANOSECONDS = Map.ofEntries(
            Map.entry("ns", 1L),
            Map.entry("us", 1_000L), Map.entry("\u00b5s", 1_000L), Map.entry("\u03bcs", 1_000L),
            Map.entry("ms", 1_000_000L),
            Map.entry("s", 1_000_000_000L), Map.entry("sec", 1_000_000_000L),
            Map.entry("min", 60_000_000_000L),
            Map.entry("hr", 3_600_000_000_000L),
            Map.entry("day", 86_400_000_000_000L));

    private enum Dimension { TIME, TIME_PER, RATE }

    /** A unit as time: its dimension, what it is per or a rate of (else ""), and its time unit in nanoseconds. */
    private record Parsed(Dimension dimension, String thing, long nanoseconds) {

        static Optional<Parsed> of(String unit) {
            if (unit == null) {
                return Optional.empty();
            }
            Long alone = NANOSECONDS.get(unit);
            if (alone != null) {
                return Optional.of(new Parsed(Dimension.TIME, "", alone));
            }
            int slash = unit.indexOf('/');
            if (slash <= 0 || slash == unit.length() - 1 || unit.indexOf('/', slash + 1) >= 0) {
                return Optional.empty();
            }
            String over = unit.substring(0, slash);
            String under = unit.substring(slash + 1);
            Long overTime = NANOSECONDS.get(over);
            Long underTime = NANOSECONDS.get(under);
            if (overTime != null && underTime == null) {
                return Optional.of(new Parsed(Dimension.TIME_PER, thing(under), overTime));
            }
            if (overTime == null && underTime != null) {
                return Optional.of(new Parsed(Dimension.RATE, thing(over), underTime));
            }
            return Optional.empty();
        }

        /** JMH writes {@code ops/s} and {@code us/op}, others {@code op/s}: the same operation. */
        private static String thing(String text) {
            return text.equals("ops") ? "op" : text;
        }
    }

    private final String from;
    private final String to;
    private final double multiplier;
    private final double divisor;

    private UnitConversion(String from, String to, double multiplier, double divisor) {
        this.from = from;
        this.to = to;
        this.multiplier = multiplier;
        this.divisor = divisor;
    }

    /**
     * The conversion of figures in unit {@code from} to unit {@code to}, or empty when they are not of one dimension
     * or either is not a unit of the table. Two spellings of one unit ({@code op/s}, {@code ops/s}) convert by 1.
     */
    public static Optional<UnitConversion> between(String from, String to) {
        Optional<Parsed> source = Parsed.of(from);
        Optional<Parsed> target = Parsed.of(to);
        if (source.isEmpty() || target.isEmpty() || source.get().dimension() != target.get().dimension()
                || !source.get().thing().equals(target.get().thing())) {
            return Optional.empty();
        }
        double sourceNanoseconds = source.get().nanoseconds();
        double targetNanoseconds = target.get().nanoseconds();
        // 12 us is 12 · 1,000 / 1,000,000 ms; 5 ops/us is 5 · 1,000,000 / 1,000 ops/ms
        return Optional.of(source.get().dimension() == Dimension.RATE
                ? new UnitConversion(from, to, targetNanoseconds, sourceNanoseconds)
                : new UnitConversion(from, to, sourceNanoseconds, targetNanoseconds));
    }

    /** {@code value}, a figure in {@link #from()}, in {@link #to()}. */
    public double apply(double value) {
        double scaled = value * multiplier;
        // dividing first loses the exactness of 12 · 1,000 / 1,000,000 and is needed only near Double.MAX_VALUE
        return Double.isInfinite(scaled) && Double.isFinite(value) ? value / divisor * multiplier : scaled / divisor;
    }

    public String from() {
        return from;
    }

    public String to() {
        return to;
    }
}
