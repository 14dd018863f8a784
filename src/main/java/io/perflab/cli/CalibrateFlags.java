package io.perflab.cli;

import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.rpcbench.WorkloadSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * The checks of {@code perflab calibrate}'s flags, for a run and for {@code --from}: each value on its own, and each
 * flag against the design it would cut, so that a flag the design or the report would not use is refused naming it
 * (as {@code perflab ab} refuses its own) rather than ignored.
 */
final class CalibrateFlags {

    private CalibrateFlags() {
    }

    /**
     * Refuses fewer than one experiment, fewer than two trials (pairs) in each, or more than one plan holds.
     *
     * @param perExperiment {@code --pairs} of a paired design, else {@code --runs}
     */
    static void checkSize(CommandLine commandLine, int experiments, boolean paired, int perExperiment) {
        String unit = paired ? "--pairs" : "--runs";
        if (experiments < 1) {
            throw new ParameterException(commandLine, "--experiments must be at least 1, got " + experiments);
        }
        if (perExperiment < 2) {
            throw new ParameterException(commandLine, unit + " must be at least 2, got " + perExperiment);
        }
        if ((long) experiments * perExperiment > ExperimentPlan.MAX_RUNS_PER_VARIANT) {
            throw new ParameterException(commandLine, "--experiments " + experiments + " × " + unit + " "
                    + perExperiment + " is more than one plan can hold (" + ExperimentPlan.MAX_RUNS_PER_VARIANT
                    + (paired ? " pairs)" : " trials per side)"));
        }
    }

    /**
     * The cost of {@code --inject serverWorkNanos=N} in ns, 0 without one.
     *
     * @throws ParameterException naming {@code --inject} when it is not {@code serverWorkNanos=N} of an N in range
     */
    static long injectedNanos(CommandLine commandLine, String inject) {
        if (inject == null) {
            return 0;
        }
        String prefix = "serverWorkNanos=";
        try {
            if (!inject.startsWith(prefix)) {
                throw new NumberFormatException();
            }
            long nanos = Long.parseLong(inject.substring(prefix.length()).strip());
            if (nanos < 1 || nanos > WorkloadSettings.MAX_SERVER_WORK_NANOS) {
                throw new NumberFormatException();
            }
            return nanos;
        } catch (NumberFormatException e) {
            throw new ParameterException(commandLine, "--inject takes serverWorkNanos=N with N from 1 to "
                    + WorkloadSettings.MAX_SERVER_WORK_NANOS + " (ns of user CPU the server spins per call), got '"
                    + inject + "'");
        }
    }

    /**
     * Refuses an MDE's experiment of fewer than two trials per side or of more than an experiment may have
     * ({@link ExperimentPlan#MAX_RUNS_PER_VARIANT}); {@code --alpha}'s converter refuses a level outside (0, 1).
     */
    static void checkValues(CommandLine commandLine, int mdeRuns) {
        if (mdeRuns < 2) {
            throw new ParameterException(commandLine, "--mde-runs must be at least 2, got " + mdeRuns);
        }
        if (mdeRuns > ExperimentPlan.MAX_RUNS_PER_VARIANT) {
            // sized an experiment of 2147483647 + 2147483647 trials, "about 2012927023 min 49 s"
            throw new ParameterException(commandLine, "--mde-runs must be at most "
                    + ExperimentPlan.MAX_RUNS_PER_VARIANT + ", the most trials per side of an experiment, got "
                    + mdeRuns);
        }
    }

    /**
     * Refuses the flags typed that {@code design} would not use: {@code --runs} with a paired design, {@code --pairs}
     * and {@code --windows-per-pair} with the fresh one, {@code --mde-runs} where the report has no MDE of that size.
     *
     * @param source how the design was chosen, for the messages: {@code --design duet}, {@code --runs without
     *     --design} or the file of {@code --from}
     * @param injected whether {@code --inject} was given
     */
    static void checkAgainstDesign(CommandLine commandLine, ExperimentDesign design, Source source, boolean injected) {
        CommandLine.ParseResult typed = commandLine.getParseResult();
        if (design.paired() && typed.hasMatchedOption("--runs")) {
            throw new ParameterException(commandLine, "--runs sets the trials of the fresh design; "
                    + source.describe(design) + " takes --pairs");
        }
        List<String> pairedOnly = Stream.of("--pairs", "--windows-per-pair", "--target", "--budget")
                .filter(typed::hasMatchedOption).toList();
        if (!design.paired() && !pairedOnly.isEmpty()) {
            String flags = String.join(" and ", pairedOnly) + (pairedOnly.size() == 1 ? " applies" : " apply")
                    + " to --design duet or alternating";
            throw new ParameterException(commandLine, source == Source.DEFAULT ? flags + "; --runs without --design "
                    + "chooses the fresh design" : flags + ", not to " + source.describe(design));
        }
        if (typed.hasMatchedOption("--mde-runs") && (design.paired() || injected)) {
            throw new ParameterException(commandLine, "--mde-runs sizes the experiment whose minimum detectable "
                    + "effect the A/A report of the fresh design gives; " + (injected ? "with --inject the report is "
                    + "the estimate's bias, coverage and power instead" : source.describe(design) + " reports that of "
                    + "its own experiments of --pairs pairs"));
        }
    }

    /**
     * Refuses, with {@code --from}, each flag typed that only shapes a run: the engine options, the design and its
     * windows, the workload, and the trial processes with their JVMs and experiment file (the mixins
     * {@code workloadOptions} and {@code processOptions}). The stored run was made with its own; judging it again
     * uses none of them.
     */
    static void checkStoredRun(CommandLine commandLine, Path file) {
        List<String> runOnly = new ArrayList<>(List.of("--set", "--design", "--windows-per-pair"));
        for (String mixin : List.of("workloadOptions", "processOptions")) {
            commandLine.getCommandSpec().mixins().get(mixin).options()
                    .forEach(option -> runOnly.add(option.longestName()));
        }
        CommandLine.ParseResult typed = commandLine.getParseResult();
        List<String> given = runOnly.stream().filter(typed::hasMatchedOption).toList();
        if (!given.isEmpty()) {
            boolean one = given.size() == 1;
            throw new ParameterException(commandLine, String.join(", ", given) + (one ? " applies" : " apply")
                    + " only to a run; --from " + file + " judges a stored run again, as it was run: leave "
                    + (one ? "it" : "them") + " out");
        }
    }

    /** Where the design of a calibration comes from. */
    interface Source {

        /** {@code --design}, or its default ({@code --runs} chooses fresh, else alternating). */
        Source DEFAULT = design -> "the " + design.label() + " design";

        /** {@code --design} as typed. */
        Source DESIGN_FLAG = design -> "--design " + design.label();

        /** The design of a stored run. */
        static Source file(java.nio.file.Path file) {
            return design -> "the " + design.label() + " run in --from " + file;
        }

        String describe(ExperimentDesign design);
    }
}
