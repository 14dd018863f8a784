package io.perflab.cli;

import io.perflab.runner.trial.HostEnvironment;
import java.io.PrintWriter;

/**
 * Warns before measuring on a machine that other work keeps busy: the load is read before any trial starts, so that
 * none of the benchmark's own threads count in it ({@link HostEnvironment.LoadAverage#warning}).
 */
final class LoadWarning {

    private LoadWarning() {
    }

    /** Prints a warning to {@code err} when the 1-minute load average is high for this machine's CPUs. */
    static void check(PrintWriter err) {
        int cpus = Runtime.getRuntime().availableProcessors();
        HostEnvironment.loadAverage().flatMap(load -> load.warning(cpus, "")).ifPresent(warning -> err.println(
                "perflab: warning: " + warning + " (the load is recorded with every trial)"));
    }
}
