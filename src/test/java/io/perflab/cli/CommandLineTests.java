package io.perflab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

/** What the command tests share: running {@code perflab} in-process with its output captured. */
abstract class CommandLineTests {

    /** What the last {@link #execute} printed to standard output. */
    protected final StringWriter out = new StringWriter();

    /** What the last {@link #execute} printed to standard error. */
    protected final StringWriter err = new StringWriter();

    /** Runs {@code perflab args…}; returns its exit status. */
    protected int execute(String... args) {
        return PerfLabCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    }

    /** Asserts that {@code perflab args…} exits with status 2 (bad usage) and says {@code message}. */
    protected static void assertRejected(String message, String... args) {
        StringWriter errors = new StringWriter();
        int status = PerfLabCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(errors, true))
                .execute(args);
        assertThat(status).as(String.join(" ", args)).isEqualTo(2);
        assertThat(errors.toString()).contains(message);
    }

    /** A successful trial that measured only user CPU per request. */
    protected static TrialResult userCpuTrial(String variant, int ordinal, double userCpu) {
        return new TrialResult(variant, ordinal, TrialStatus.OK, null, null, 1, Map.of(
                MetricKeys.USER_CPU_US_PER_REQ, userCpu), Map.of(), null);
    }
}
