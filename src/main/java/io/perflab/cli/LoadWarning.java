package io.perflab.cli;

import io.perflab.runner.trial.HostEnvironment;
import java.io.PrintWriter;
import java.util.Locale;

/** Warns before measuring on a machine that other work keeps busy. */
final class LoadWarning {

    private LoadWarning() {
    }

    /** Prints a warning to {@code err} when the 1-minute load average is high for this machine's CPUs. */
    static void check(PrintWriter err) {
        int cpus = Runtime.getRuntime().availableProcessors();
        HostEnvironment.loadAverage().filter(load -> load.isHigh(cpus)).ifPresent(load -> err.println(
                String.format(Locale.ROOT, "perflab: warning: load average %.2f on %d CPUs: other work competes "
                        + "with the benchmark, expect noisy figures (the load is recorded with every trial)",
                        load.oneMinute(), cpus)));
    }
}
