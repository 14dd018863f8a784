package io.perflab.cli;

import io.perflab.paired.PairedSamples;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.TrialResult;
import io.perflab.stats.Direction;
import io.perflab.system.PrintableText;
import io.perflab.upload.DecimalNumbers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the inputs of {@code perflab compare}: a text file of one number per line (blank lines and {@code #}
 * comments ignored), or the JSON of {@code perflab ab --out}: an object whose {@code trials} array holds
 * {@code {variant, ordinal, status, metrics: {key: value}}} ({@link ExperimentFiles}). Only trials with status
 * {@code OK} count.
 */
final class SampleFiles {

    /**
     * The values of one file: per metric, values with the ordinal (run index) of each.
     *
     * @param higherIsBetter of the metrics the trials read from their command's output, the direction the output's
     *     format gave (JMH's {@code ops/s} is higher-is-better), as {@code perflab ab} and the service judge them
     */
    record Samples(Path file, boolean json, Map<String, List<double[]>> metrics, int skippedTrials,
                   Map<String, Boolean> higherIsBetter) {

        /** The direction the file's trials gave {@code metric}, if they read it from their output. */
        Optional<Direction> direction(String metric) {
            return Optional.ofNullable(higherIsBetter.get(metric))
                    .map(higher -> higher ? Direction.HIGHER_IS_BETTER : Direction.LOWER_IS_BETTER);
        }

        double[] values(String metric) {
            return metrics.get(metric).stream().mapToDouble(v -> v[0]).toArray();
        }

        long[] order(String metric) {
            return metrics.get(metric).stream().mapToLong(v -> (long) v[1]).toArray();
        }
    }

    /** Unnamed metric of a plain file. */
    static final String PLAIN_METRIC = "value";

    /** A file that cannot be read, with the file and line in the message. */
    static final class BadFileException extends Exception {
        BadFileException(String message) {
            super(message);
        }
    }

    private SampleFiles() {
    }

    /**
     * A file as read: the numbers of a plain file, or the trials of an experiment file.
     *
     * @param plain the values of a plain file with their order; null for an experiment file
     * @param trials the trials of an experiment file; null for a plain file
     */
    record Input(Path file, List<double[]> plain, List<TrialResult> trials) {

        /** Whether the file is an experiment file. */
        boolean json() {
            return trials != null;
        }

        /** Whether the file is an experiment file of a paired design (duet, alternating). */
        boolean paired() {
            return trials != null && PairedSamples.isPaired(trials);
        }
    }

    /**
     * Reads {@code file}: UTF-8 text ({@link InputFiles}), an experiment file when it starts with {@code {}, else
     * one number per line.
     *
     * @throws BadFileException naming the file, and the line or the entry at fault
     */
    static Input load(Path file) throws BadFileException {
        String text;
        try {
            text = InputFiles.text(file);
        } catch (InputFiles.BadInputException e) {
            throw new BadFileException(file + ": " + e.getMessage());
        }
        if (!text.stripLeading().startsWith("{")) {
            return new Input(file, plain(file, text), null);
        }
        List<TrialResult> trials;
        try {
            trials = ExperimentFiles.read(text).trials();
        } catch (InputFiles.BadInputException e) {
            throw new BadFileException(file + ": " + e.getMessage());
        }
        checkNames(file, trials);
        return new Input(file, null, trials);
    }

    /**
     * The samples of {@code input}; from an experiment file only the trials of {@code variant} are taken when the file
     * holds both variants.
     */
    static Samples samples(Input input, String variant) {
        if (!input.json()) {
            Map<String, List<double[]>> metrics = new LinkedHashMap<>();
            metrics.put(PLAIN_METRIC, input.plain());
            return new Samples(input.file(), false, metrics, 0, Map.of());
        }
        List<TrialResult> trials = input.trials();
        boolean both = trials.stream().anyMatch(t -> VariantName.WITH.label().equals(t.variant()))
                && trials.stream().anyMatch(t -> VariantName.WITHOUT.label().equals(t.variant()));
        Map<String, List<double[]>> metrics = new LinkedHashMap<>();
        Map<String, Boolean> higherIsBetter = new LinkedHashMap<>();
        int skipped = 0;
        for (TrialResult t : trials) {
            if (both && !variant.equals(t.variant())) {
                continue;
            }
            if (!t.ok()) {
                skipped++;
                continue;
            }
            t.metrics().forEach((key, value) -> metrics.computeIfAbsent(key, k -> new ArrayList<>())
                    .add(new double[] {value, t.ordinal()}));
            t.parsedMetrics().forEach((key, parsed) -> higherIsBetter.putIfAbsent(key, parsed.higherIsBetter()));
        }
        return new Samples(input.file(), true, metrics, skipped, higherIsBetter);
    }

    /**
     * One number per line, in the grammar of uploads ({@link DecimalNumbers}); blank lines and {@code #} comments are
     * skipped, and a line ends at LF, CR LF or CR.
     */
    private static List<double[]> plain(Path file, String text) throws BadFileException {
        List<double[]> values = new ArrayList<>();
        String[] lines = text.split("\r\n|\r|\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            Double v = DecimalNumbers.parse(line);
            if (v == null) {
                throw new BadFileException(file + ":" + (i + 1) + ": '" + abbreviate(line) + "' is not a number");
            }
            if (v.isInfinite()) {
                throw new BadFileException(file + ":" + (i + 1) + ": " + DecimalNumbers.beyondRange(line));
            }
            values.add(new double[] {v, values.size()});
        }
        return values;
    }

    /**
     * The results of a paired experiment: the baseline's windows from {@code without} and the change's from
     * {@code with} (one file given twice, usually), when both are experiment files of a paired design; empty for any
     * other input.
     */
    static Optional<List<TrialResult>> pairedResults(Input without, Input with) {
        if (!without.paired() || !with.paired()) {
            return Optional.empty();
        }
        List<TrialResult> results = new ArrayList<>();
        without.trials().stream().filter(r -> r.variant().equals(VariantName.WITHOUT.label())).forEach(results::add);
        with.trials().stream().filter(r -> r.variant().equals(VariantName.WITH.label())).forEach(results::add);
        return Optional.of(results);
    }

    /**
     * The metric names a table will print are printable text: a name holding an escape code or a right-to-left
     * override would act on the terminal, or reorder the table, instead of being shown.
     */
    private static void checkNames(Path file, List<TrialResult> trials) throws BadFileException {
        for (TrialResult trial : trials) {
            for (String key : trial.metrics().keySet()) {
                int at = PrintableText.Validator.firstProblem(key, false);
                if (at >= 0) {
                    throw new BadFileException(file + ": the metric '" + PrintableText.Validator.shown(key)
                            + "' of trial " + trial.ordinal() + " holds " + PrintableText.Validator.problemAt(key, at)
                            + "; metric names are printable text");
                }
            }
        }
    }

    /**
     * The direction of a metric key: DESIGN's table for trial metrics; lower is better otherwise. A metric a trial
     * read from its command's output has the direction its format gave ({@link Samples#direction}).
     */
    static Direction direction(String metric, boolean higherIsBetter) {
        if (PLAIN_METRIC.equals(metric)) {
            return higherIsBetter ? Direction.HIGHER_IS_BETTER : Direction.LOWER_IS_BETTER;
        }
        return MetricKeys.lowerIsBetter(metric) ? Direction.LOWER_IS_BETTER : Direction.HIGHER_IS_BETTER;
    }

    /** A line as a message quotes it: cut short, and escaped where it would act on the terminal. */
    private static String abbreviate(String s) {
        return PrintableText.Validator.shown(s.length() <= 40 ? s : s.substring(0, 37) + "...");
    }
}
