package io.perflab.cli;

import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.rpcbench.WorkloadSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * The checks of {@code perflab calibrate}'s flags, for a run and for {@code --from}: each value on its own, and each
 * flag against the design it would cut, so that a flag the design or the report would not use is refused naming it
 * (as {@code perflab ab} refuses its own) rather than ignored.
 */
final class CalibrateFlags {

    /** The workload setting by which {@code --inject} makes the with side cost more. */
    private static final String SERVER_WORK_NANOS = "serverWorkNanos";

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

    /**
     * Refuses, with {@code --from}, a stored run whose two sides are not the same variant but for the injected cost:
     * judged as an A/A (or as a known effect of {@code --inject}), a real change's effect would be counted as false
     * positives and as the instrument's noise. Each side's description is compared whole (kind, engine options,
     * workload, JVM flags, commands, Java home), apart from the workload's {@code serverWorkNanos}, whose excess on the
     * with side must be the {@code --inject} cost (none without it).
     *
     * @param experiment the file's {@code experiment} object, holding {@code without} and {@code with}
     */
    static void checkSidesAlike(CommandLine commandLine, Path file, Map<String, Object> experiment,
            long injectedNanos) {
        if (!experiment.containsKey("without") && !experiment.containsKey("with")) {
            return; // a file that does not describe its sides (put together by hand): nothing to compare
        }
        Map<String, Object> without = side(experiment, "without");
        Map<String, Object> with = side(experiment, "with");
        long excess;
        try {
            excess = serverWorkNanos(with) - serverWorkNanos(without);
        } catch (NumberFormatException e) {
            throw new ParameterException(commandLine, "--from " + file + ": a side's workload.serverWorkNanos is "
                    + "not a whole number");
        }
        without.put("workload", withoutServerWork(without.get("workload")));
        with.put("workload", withoutServerWork(with.get("workload")));
        List<String> differing = new ArrayList<>();
        differences("", without, with, differing);
        if (!differing.isEmpty()) {
            throw new ParameterException(commandLine, "--from " + file + " is not a run of one variant against "
                    + "itself: its sides differ in " + String.join(", ", differing.stream().limit(5).toList())
                    + (differing.size() > 5 ? " and " + (differing.size() - 5) + " more" : "") + "; calibrate "
                    + "judges A/A runs (and runs of an --inject cost), not a change: compare it with perflab compare");
        }
        if (excess != injectedNanos) {
            throw new ParameterException(commandLine, "--from " + file + ": its with side's serverWorkNanos is "
                    + excess + " ns above the without side's, "
                    + (injectedNanos == 0 ? "so it is a known-effect run: add --inject serverWorkNanos=" + excess
                    : "not the " + injectedNanos + " ns of --inject serverWorkNanos=" + injectedNanos));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> side(Map<String, Object> experiment, String name) {
        Object side = experiment.get(name);
        return side instanceof Map<?, ?> map ? new LinkedHashMap<>((Map<String, Object>) map) : new LinkedHashMap<>();
    }

    private static long serverWorkNanos(Map<String, Object> side) {
        Object workload = side.get("workload");
        Object nanos = workload instanceof Map<?, ?> map ? map.get(SERVER_WORK_NANOS) : null;
        return nanos == null ? 0 : Long.parseLong(String.valueOf(nanos));
    }

    private static Object withoutServerWork(Object workload) {
        if (!(workload instanceof Map<?, ?> map)) {
            return workload;
        }
        Map<Object, Object> rest = new LinkedHashMap<>(map);
        rest.remove(SERVER_WORK_NANOS);
        return rest;
    }

    /** The paths at which {@code without} and {@code with} hold different values, with both values. */
    private static void differences(String path, Object without, Object with, List<String> out) {
        if (without instanceof Map<?, ?> a && with instanceof Map<?, ?> b) {
            Set<Object> keys = new TreeSet<>(Comparator.comparing(String::valueOf));
            keys.addAll(a.keySet());
            keys.addAll(b.keySet());
            for (Object key : keys) {
                differences(path.isEmpty() ? String.valueOf(key) : path + "." + key, a.get(key), b.get(key), out);
            }
        } else if (!Objects.equals(without, with)) {
            out.add(path + " (" + ExperimentFiles.shown(String.valueOf(without)) + " without, "
                    + ExperimentFiles.shown(String.valueOf(with)) + " with)");
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
