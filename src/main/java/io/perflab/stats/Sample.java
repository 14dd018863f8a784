package io.perflab.stats;

import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The observations of one variant, optionally with the run index of each (its position in the experiment's
 * order), which lets a comparison warn about drift.
 */
public final class Sample {

    /**
     * The largest magnitude a value may have, 1e150: squares, sums of squares and differences of values up to it
     * stay finite in double precision for any sample size PerfLab accepts, so every statistic is computed exactly
     * as for small values. Larger values are refused as "too large to compare" rather than answered with NaN.
     */
    public static final double MAX_MAGNITUDE = 1e150;

    /** Why {@code value} cannot be analysed, or null if it can. */
    public static String problem(double value) {
        if (!Double.isFinite(value)) {
            return "is " + (Double.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity")
                    + ": only finite numbers can be analysed";
        }
        if (Math.abs(value) > MAX_MAGNITUDE) {
            return "is " + value + ": values too large to compare (their magnitude must be at most 1e150)";
        }
        return null;
    }

    private final double[] values;
    private final long[] runOrder;

    private Sample(double[] values, long[] runOrder) {
        this.values = values.clone();
        this.runOrder = runOrder == null ? null : runOrder.clone();
    }

    /** Observations without run order. */
    public static Sample of(double... values) {
        return new Sample(values, null);
    }

    /**
     * Observations with the run index of each ({@code runOrder[i]} belongs to {@code values[i]}).
     *
     * @throws IllegalArgumentException when the lengths differ
     */
    public static Sample of(double[] values, long[] runOrder) {
        if (runOrder != null && runOrder.length != values.length) {
            throw new IllegalArgumentException("run order has " + runOrder.length + " entries for "
                    + values.length + " values");
        }
        return new Sample(values, runOrder);
    }

    /**
     * One observation per element of {@code observations}, in their order, with its run index: how trials, runs or
     * windows become a sample.
     */
    public static <T> Sample of(List<T> observations, ToDoubleFunction<T> value, ToLongFunction<T> runIndex) {
        double[] values = new double[observations.size()];
        long[] order = new long[observations.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = value.applyAsDouble(observations.get(i));
            order[i] = runIndex.applyAsLong(observations.get(i));
        }
        return new Sample(values, order);
    }

    /** A copy of the observations. */
    public double[] values() {
        return values.clone();
    }

    double[] valuesShared() {
        return values;
    }

    /** A copy of the run indexes, if known. */
    public Optional<long[]> runOrder() {
        return Optional.ofNullable(runOrder).map(long[]::clone);
    }

    public int size() {
        return values.length;
    }
}
