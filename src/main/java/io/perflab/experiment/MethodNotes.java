package io.perflab.experiment;

import io.perflab.runner.experiment.VariantName;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What the experiment page and the three reports say of how an experiment's figures were measured and what its
 * analysis needs, said once for all of them: an engine trial, a command run and an uploaded sample are measured in
 * different ways, and a paired design's JVMs live longer than a trial.
 */
public final class MethodNotes {

    /** What the samples export holds beside what the analysis takes. */
    public static final String SAMPLES = "failed runs' samples too, each with its run's status: the analysis takes "
            + "the runs whose status is OK";

    private MethodNotes() {
    }

    /** How the figures of experiment {@code e} were measured, as one or two sentences, by its kind and design. */
    public static String measurement(ExperimentView e) {
        boolean paired = e.paired() != null;
        return switch (e.kind()) {
            case "command" -> (paired ? "Each pair runs the two commands in turn, A B B A …, each as many times as "
                    + "the pair has windows. Every run" : "Every run") + " is one execution of its variant's command "
                    + "by /bin/sh -c: its user and system CPU time and context switches are getrusage(RUSAGE_CHILDREN)"
                    + " deltas, which cover the shell and the processes it waited for, and its wall time is taken "
                    + "from start to exit" + readOutput(e) + ".";
            case "upload" -> "The samples are the figures the uploaded benchmark output holds: PerfLab ran and "
                    + "measured nothing itself.";
            default -> (paired ? "Each pair is two JVMs, one of each variant, each started and warmed up once, then "
                    + "measuring its windows one after another: a window's per-request figures from "
                    + "getrusage(RUSAGE_SELF) deltas across the window cover its JVM's whole process"
                    : "Every run is a trial in a fresh JVM, server and clients in one process: its per-request "
                    + "figures from getrusage(RUSAGE_SELF) cover the whole process")
                    + ", client and server, less the JIT compiler threads (recorded apart as jit_cpu_ms_in_window); "
                    + "allocation is the bytes allocated by all threads per request; latency percentiles come from "
                    + "HdrHistogram" + (paired ? ", per window. " : ". ") + WARMUP;
        };
    }

    /** What an engine trial's environment says of its warmup, which precedes its measured window(s). */
    static final String WARMUP = "A JVM warms up before it measures: warmup_seconds in its environment is how long "
            + "the warmup ran from its first one-second step (a fixed warmup's time, an auto warmup's until it settled "
            + "or reached its cap), warmup_setup_seconds what came before that step (the meter's first reading, the "
            + "load running meanwhile), warmup_settled, for an auto warmup only, whether it settled, and "
            + "warmup_evidence the last steps' figures; load_average was read before its load started.";

    /** Where the variants' commands' output is read for further metrics, the formats it is read in. */
    private static String readOutput(ExperimentView e) {
        List<String> formats = Arrays.stream(VariantName.values()).map(v -> e.variants().get(v.label()))
                .filter(Objects::nonNull).map(VariantRecord::metricsFormat).filter(Objects::nonNull).distinct()
                .toList();
        return formats.isEmpty() ? "" : "; its other metrics are read from its output, as " + String.join(" and ",
                formats);
    }

    /** Why experiment {@code e} has no results yet: what its analysis needs, runs of each variant or pairs. */
    public static String noResults(ExperimentView e) {
        return e.paired() != null ? "the paired analysis needs at least two successful pairs"
                : "each variant needs at least two successful runs";
    }
}
