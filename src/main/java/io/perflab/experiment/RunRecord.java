package io.perflab.experiment;

import io.perflab.runner.trial.PairPosition;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.time.Instant;
import java.util.Map;

/**
 * A stored run (one trial, or one window of a variant in a pair of a paired design) with its samples.
 *
 * @param metrics metric key → value; empty for a failed run
 * @param environment what the trial ran on, as recorded by the runner
 * @param pair where the run lies in a paired design (pair, window, CPU set, start, skew); null in the fresh design
 */
public record RunRecord(long id, String variant, int ordinal, String status, Instant startedAt, Instant finishedAt,
                        Long pid, Map<String, String> environment, String error, Map<String, Double> metrics,
                        PairPosition pair) {

    /** A run of the fresh design, or of an upload. */
    public RunRecord(long id, String variant, int ordinal, String status, Instant startedAt, Instant finishedAt,
                     Long pid, Map<String, String> environment, String error, Map<String, Double> metrics) {
        this(id, variant, ordinal, status, startedAt, finishedAt, pid, environment, error, metrics, null);
    }

    public boolean ok() {
        return "OK".equals(status);
    }

    /** This run as the runner reported it: what the paired analysis and the stopping rule take. */
    public TrialResult toTrialResult() {
        return new TrialResult(variant, ordinal, TrialStatus.valueOf(status), startedAt, finishedAt,
                pid == null ? -1 : pid, metrics, environment, error, pair);
    }
}
