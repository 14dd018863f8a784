package io.perflab.stats;

import java.util.Optional;

/**
 * The observations of one variant, optionally with the run index of each (its position in the experiment's
 * order), which lets a comparison warn about drift.
 */
public final class Sample {

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
