package io.perflab.experiment;

import java.time.Instant;
import java.util.Map;

/**
 * A stored run (one trial) with its samples.
 *
 * @param metrics metric key → value; empty for a failed run
 * @param environment what the trial ran on, as recorded by the runner
 */
public record RunRecord(long id, String variant, int ordinal, String status, Instant startedAt, Instant finishedAt,
                        Long pid, Map<String, String> environment, String error, Map<String, Double> metrics) {

    public boolean ok() {
        return "OK".equals(status);
    }
}
