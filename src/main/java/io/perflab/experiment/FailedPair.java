package io.perflab.experiment;

import java.time.Instant;

/**
 * A pair of a paired design that failed: the unit a paired design counts its failures in. Its two records (one per
 * variant) are stored as failed runs; the pair's own error says which JVM or command failed and why.
 *
 * @param index the pair's recorded index, from 0
 * @param status {@code FAILED} or {@code TIMED_OUT}
 * @param startedAt when the pair started, null if not recorded
 * @param error why it failed, null if nothing was recorded
 */
public record FailedPair(int index, String status, Instant startedAt, String error) {
}
