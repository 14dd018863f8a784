package io.perflab.cli;

import io.perflab.analysis.ComparisonView;
import io.perflab.runner.trial.TrialResult;
import io.perflab.stats.Alternative;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.Direction;
import io.perflab.stats.Display;
import io.perflab.stats.ExperimentAnalysis;
import io.perflab.stats.MetricInput;
import io.perflab.stats.MetricOutcome;
import io.perflab.stats.Sample;
import io.perflab.stats.TTest;
import io.perflab.stats.TTestResult;
import io.perflab.stats.format.ComparisonTable;
import io.perflab.stats.format.HtestPrinter;
import io.perflab.system.PrintableText;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code perflab compare WITHOUT WITH}: benchstat/ministat for two files of numbers or two {@code ab --out}
 * JSON files (from a file holding both variants, WITHOUT takes its {@code without} trials and WITH its
 * {@code with} trials, so {@code compare run.json run.json} compares within one experiment). With {@code --paired}
 * value i of WITH and value i of WITHOUT are a pair (line i of plain files; the i-th trial of each variant of JSON
 * files) and R's {@code t.test(with, without, paired = TRUE)} is added. Files of a paired design (duet, alternating)
 * are always compared pair by pair, their windows averaged within each pair ({@link PairedFileComparison}): pair i
 * of WITHOUT's baseline against pair i of WITH's change. Files of which no metric can be compared are an error (exit
 * status 2), not a result: a table of nothing but reasons would pass for one in a script. A metric whose every
 * value is the same on each side is judged by its exact change ({@link io.perflab.stats.ConstantChange}).
 *
 * <p>Over 300 lines: its three formats (table, R, JSON) and the paired notes print one reading of the two files,
 * and the reading's refusals belong beside them.
 */
@Command(name = "compare",
        description = "Compare WITHOUT (baseline) against WITH: Welch and Mann-Whitney tests, change in percent with"
                + " its confidence interval and a verdict per metric. Inputs are files of one number per line, or"
                + " JSON written by 'perflab ab --out' (every metric is compared).",
        mixinStandardHelpOptions = true,
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:compared; a metric that could not be, where others were, says why in the result",
                "2:a bad flag or file, or files of which no metric could be compared (too few values, not finite, "
                        + "fewer than 2 pairs); the message says which and why",
                PerfLabCommand.EXIT_INTERNAL_ERROR + ":an internal error, said in one line; java -D"
                        + PerfLabCommand.DEBUG_PROPERTY + "=true -jar … adds its stack trace"})
final class CompareCommand implements Callable<Integer> {

    enum Format { table, r, json }

    @Parameters(index = "0", paramLabel = "WITHOUT", description = "baseline samples")
    Path without;

    @Parameters(index = "1", paramLabel = "WITH", description = "samples with the change")
    Path with;

    @Option(names = "--format", paramLabel = "table|r|json", defaultValue = "table",
            description = "table (default), r (R t.test print-outs) or json")
    Format format;

    @Option(names = "--confidence", paramLabel = "LEVEL", defaultValue = "0.95",
            converter = DecimalArguments.ConfidenceLevel.class,
            description = "confidence level, between 0 and 1, default ${DEFAULT-VALUE}")
    double confidence;

    @Option(names = "--alpha", paramLabel = "A", defaultValue = "0.05",
            converter = DecimalArguments.SignificanceLevel.class,
            description = "significance level of verdicts, between 0 and 1, default ${DEFAULT-VALUE}")
    double alpha;

    @Option(names = "--margin", paramLabel = "PERCENT", defaultValue = "1",
            converter = DecimalArguments.PositivePercent.class,
            description = "equivalence margin in percent, above 0, default ${DEFAULT-VALUE}")
    double margin;

    @Option(names = "--alternative", paramLabel = "two-sided|less|greater", defaultValue = "two-sided",
            converter = AlternativeHypothesis.class,
            description = "alternative hypothesis of the tests: two-sided (default), less (WITH lower than WITHOUT) "
                    + "or greater (WITH higher)")
    Alternative alternative;

    @Option(names = "--paired",
            description = "the samples are pairs, value i of WITH with value i of WITHOUT: adds the paired t-test"
                    + " (and --format r prints it instead of Welch's); refused with the files of a paired design,"
                    + " which are compared pair by pair")
    boolean paired;

    @Option(names = "--higher-is-better",
            description = "for plain number files: larger values are better (default: lower is better); refused with "
                    + "experiment files, whose metrics have their own direction")
    boolean higherIsBetter;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        // each flag's converter has refused what these refuse, naming it
        ComparisonOptions options = ComparisonOptions.defaults().withConfidenceLevel(confidence).withAlpha(alpha)
                .withEquivalenceMarginPercent(margin).withAlternative(alternative);
        SampleFiles.Input baseFile;
        SampleFiles.Input changeFile;
        try {
            baseFile = SampleFiles.load(without);
            changeFile = with.equals(without) ? baseFile : SampleFiles.load(with);
        } catch (SampleFiles.BadFileException e) {
            err.println(shown("perflab compare: " + e.getMessage()));
            return PerfLabCommand.EXIT_USAGE;
        }
        requireFlagsTheFilesUse(baseFile, changeFile);
        if (baseFile.json() && changeFile.json() && baseFile.paired() != changeFile.paired()) {
            // Welch took the paired file's windows for independent trials, as many as its pairs times its windows
            SampleFiles.Input paired = baseFile.paired() ? baseFile : changeFile;
            err.println(shown("perflab compare: " + paired.file() + " holds a paired design's windows, "
                    + (paired == baseFile ? with : without) + " fresh trials: the windows of a pair are no "
                    + "independent samples, so a paired design's file is compared pair by pair, with itself or "
                    + "another paired one"));
            return PerfLabCommand.EXIT_USAGE;
        }
        Optional<List<TrialResult>> pairedResults = SampleFiles.pairedResults(baseFile, changeFile);
        if (pairedResults.isPresent()) {
            int status = PairedFileComparison.compare(pairedResults.get(), without.equals(with) ? without.toString()
                    : without + " and " + with, format, options, out, err);
            out.flush();
            return status;
        }
        SampleFiles.Samples base = SampleFiles.samples(baseFile, "without");
        SampleFiles.Samples change = SampleFiles.samples(changeFile, "with");
        Set<String> names = new LinkedHashSet<>(base.metrics().keySet());
        names.retainAll(change.metrics().keySet());
        if (names.isEmpty()) {
            err.println(shown("perflab compare: " + without + " and " + with + " have no metric in common"));
            return PerfLabCommand.EXIT_USAGE;
        }
        List<MetricInput> inputs = new ArrayList<>();
        for (String name : names) {
            Direction direction = change.direction(name).or(() -> base.direction(name))
                    .orElseGet(() -> SampleFiles.direction(name, higherIsBetter));
            inputs.add(new MetricInput(name, direction,
                    Sample.of(change.values(name), change.order(name)),
                    Sample.of(base.values(name), base.order(name))));
        }
        List<MetricOutcome> outcomes = ExperimentAnalysis.analyze(inputs, options);
        if (outcomes.stream().allMatch(o -> o.error().isPresent())) {
            Map<String, String> why = new LinkedHashMap<>();
            outcomes.forEach(o -> why.put(o.name(), o.error().get()));
            err.println(shown("perflab compare: " + without + " vs " + with + ": " + (base.json() || change.json()
                    ? "no metric could be compared: " + reasons(why) : outcomes.get(0).error().get())));
            return PerfLabCommand.EXIT_USAGE;
        }
        Map<String, PairedOutcome> pairs = new LinkedHashMap<>();
        if (paired) {
            if (base.skippedTrials() + change.skippedTrials() > 0) {
                err.println("perflab compare: --paired: " + (base.skippedTrials() + change.skippedTrials())
                        + " failed trial(s) would shift the pairs of trials after them; compare without --paired");
                return PerfLabCommand.EXIT_USAGE;
            }
            for (MetricInput m : inputs) {
                pairs.put(m.name(), PairedOutcome.of(m, options));
            }
            PairedOutcome first = pairs.values().iterator().next();
            if (!base.json() && !change.json() && first.error() != null) {
                err.println("perflab compare: --paired: " + first.error());
                return PerfLabCommand.EXIT_USAGE;
            }
        }
        switch (format) {
            case table -> {
                out.print(ComparisonTable.render(outcomes, options));
                if (paired) {
                    out.print(pairedNotes(pairs, options));
                }
            }
            case r -> outcomes.forEach(o -> {
                out.println("## " + o.name());
                if (paired) {
                    PairedOutcome p = pairs.get(o.name());
                    out.print(p.error() == null ? HtestPrinter.tTest(p.result()) : "Error: " + p.error() + "\n");
                    return;
                }
                o.constant().ifPresentOrElse(c -> out.println("No t-test: " + c.reason()),
                        () -> o.result().ifPresentOrElse(r -> out.print(HtestPrinter.tTest(r.welch())),
                                () -> out.println("Error: " + o.error().orElse(""))));
            });
            case json -> out.println(JsonMapper.builder().build().writerWithDefaultPrettyPrinter()
                    .writeValueAsString(json(outcomes, pairs)));
        }
        int skipped = base.skippedTrials() + change.skippedTrials();
        if (skipped > 0) {
            err.println(shown("perflab compare: " + skipped + " failed trial(s) left out"));
        }
        out.flush();
        return 0;
    }

    /** {@code --alternative}: the alternative hypothesis of the tests. */
    static final class AlternativeHypothesis implements CommandLine.ITypeConverter<Alternative> {
        @Override
        public Alternative convert(String text) {
            return PerfLabCommand.converted(() -> Alternative.parse(PrintableText.Validator.shown(text)));
        }
    }

    /**
     * Refuses {@code --higher-is-better} with an experiment file, whose metrics have their direction, and
     * {@code --paired} with the files of a paired design, which are always compared pair by pair: each was ignored.
     */
    private void requireFlagsTheFilesUse(SampleFiles.Input base, SampleFiles.Input change) {
        SampleFiles.Input json = base.json() ? base : change.json() ? change : null;
        if (higherIsBetter && json != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--higher-is-better applies to files of "
                    + "numbers; " + json.file() + " is an experiment file, whose metrics have their own direction: "
                    + "leave --higher-is-better out");
        }
        if (paired && base.paired() && change.paired()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--paired pairs value i of WITH with value i "
                    + "of WITHOUT; " + (without.equals(with) ? without : without + " and " + with) + " hold a paired "
                    + "design's windows, which are always compared pair by pair: leave --paired out");
        }
    }

    /**
     * Why metrics were not compared, for one line: each reason once, with the metrics it holds for (e.g. {@code not
     * enough pairs: 1 (cpu_us_per_req, reqs_per_sec, and 9 more)}).
     */
    static String reasons(Map<String, String> whyByMetric) {
        Map<String, List<String>> metricsByWhy = new LinkedHashMap<>();
        whyByMetric.forEach((metric, why) -> metricsByWhy.computeIfAbsent(why, w -> new ArrayList<>()).add(metric));
        List<String> said = new ArrayList<>();
        metricsByWhy.forEach((why, metrics) -> said.add(metrics.size() == 1 ? metrics.get(0) + ": " + why
                : why + " (" + String.join(", ", metrics.subList(0, Math.min(3, metrics.size())))
                        + (metrics.size() > 3 ? ", and " + (metrics.size() - 3) + " more" : "") + ")"));
        return String.join("; ", said);
    }

    /** The paired t-test of one metric, or why there is none. */
    private record PairedOutcome(TTestResult result, String error) {

        static PairedOutcome of(MetricInput m, ComparisonOptions options) {
            try {
                return new PairedOutcome(TTest.paired(m.with().values(), m.without().values(),
                        options.alternative(), options.confidenceLevel()), null);
            } catch (IllegalArgumentException e) {
                return new PairedOutcome(null, e.getMessage());
            }
        }
    }

    /** One line per metric under the table: the paired test's mean difference, interval and p-value. */
    private static String pairedNotes(Map<String, PairedOutcome> pairs, ComparisonOptions options) {
        StringBuilder b = new StringBuilder("\npaired t-test, value i of WITH against value i of WITHOUT (not"
                + " Holm-adjusted):\n");
        pairs.forEach((name, p) -> {
            b.append(name).append(": ");
            if (p.error() != null) {
                b.append(p.error()).append('\n');
                return;
            }
            TTestResult r = p.result();
            b.append("mean difference ").append(Display.value(r.difference())).append(", ")
                    .append(Display.level(options.confidenceLevel())).append(" CI [")
                    .append(Double.isInfinite(r.ciLow()) ? "-Inf" : Display.value(r.ciLow()).strip()).append(", ")
                    .append(Double.isInfinite(r.ciHigh()) ? "Inf" : Display.value(r.ciHigh()).strip())
                    .append("], t = ").append(Display.value(r.t()).strip()).append(", df = ")
                    .append(Display.value(r.df()).strip()).append(", ").append(Display.pEquals(r.pValue()))
                    .append('\n');
        });
        return b.toString();
    }

    private static List<Map<String, Object>> json(List<MetricOutcome> outcomes, Map<String, PairedOutcome> pairs) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (MetricOutcome o : outcomes) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("metric", o.name());
            m.put("better", o.direction() == Direction.LOWER_IS_BETTER ? "lower" : "higher");
            PairedOutcome p = pairs.get(o.name());
            o.result().ifPresent(r -> m.put("comparison", p == null || p.result() == null ? ComparisonView.of(r)
                    : ComparisonView.of(r).withPaired(p.result())));
            o.constant().ifPresent(c -> m.put("constant", ComparisonView.ConstantView.of(c)));
            o.error().ifPresent(e -> m.put("error", e));
            if (p != null && p.error() != null) {
                m.put("pairedError", p.error());
            }
            list.add(m);
        }
        return list;
    }

    /**
     * A message as this command prints it: a file's name (or anything else) holding a control character or one that
     * reorders text shown as its escape ({@code \u001B}), so that it cannot act on the terminal.
     */
    private static String shown(String message) {
        return PrintableText.Validator.shown(message);
    }
}
