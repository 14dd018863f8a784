package io.perflab.runner.trial;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Where a result lies in a paired design ({@code duet} or {@code alternating}): enough to analyse the experiment
 * again later, pair by pair, and to see how well its windows lined up.
 *
 * @param index the pair, from 0; the unit of replication
 * @param window the window of this variant within the pair, from 0 (window j of each variant are partners); null
 *     for the record of a pair that failed as a whole
 * @param cpus the CPU list the JVM was pinned to ({@code taskset -c}), null when it was not pinned
 * @param startNanos the window's start on the host's monotonic clock ({@code CLOCK_MONOTONIC}, the same in every
 *     process of the host), null for a failed pair
 * @param skewNanos this window's start minus its partner's, in a duet, whose windows are meant to start together;
 *     null in the alternating design, whose windows follow each other
 * @param startedFirst whether this variant's JVM (or command) of the pair was started first
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PairPosition(int index, Integer window, String cpus, Long startNanos, Long skewNanos,
                           boolean startedFirst) {

    /** The most windows of each variant a pair may have: its windows are numbered 0 to this − 1. */
    public static final int MAX_WINDOWS = 1000;

    /**
     * @throws IllegalArgumentException for a negative pair or a window outside 0 to {@value #MAX_WINDOWS} − 1: an
     *     analysis lays a pair's windows out by number, so a file holding -1 or 2³¹ − 1 would fail there, or fill
     *     the memory, instead of saying what is wrong
     */
    public PairPosition {
        if (index < 0) {
            throw new IllegalArgumentException("a pair index is ≥ 0, got " + index);
        }
        if (window != null && (window < 0 || window >= MAX_WINDOWS)) {
            throw new IllegalArgumentException("pair " + index + " has window " + window + "; a pair's windows are "
                    + "numbered 0 to " + (MAX_WINDOWS - 1));
        }
    }
}
