package io.perflab.cli;

import io.perflab.runner.experiment.ExperimentJson;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.trial.TrialResult;
import io.perflab.system.JsonErrors;
import io.perflab.system.PrintableText;
import io.perflab.system.Texts;
import io.perflab.upload.DecimalNumbers;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.ValueInstantiationException;

/**
 * Experiment files as {@code compare} and {@code calibrate --from}/{@code --reference} read them: the JSON of
 * {@code perflab ab --out} (and {@code calibrate --out}), checked for what the runner's reader lets through and the
 * analyses cannot take — a trial that is null, a metric that is null or beyond the range of a double, trials of other
 * variants than {@code without} and {@code with} (a {@code peers --out} file) — and every problem said in the file's
 * terms ({@code trials[3].metrics.x}), never in the parser's or Java's.
 */
final class ExperimentFiles {

    /** What every message about a file that is no experiment file starts with. */
    static final String NOT_AN_EXPERIMENT_FILE = "not an experiment file of perflab ab --out: ";

    /** What the runner's reader calls a missing or null value that a trial's record requires. */
    private static final Pattern FIELD_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9]*");

    private ExperimentFiles() {
    }

    /**
     * The experiment file {@code text} holds.
     *
     * @throws InputFiles.BadInputException saying what is wrong and where: the entry, or the line and column
     */
    static ExperimentJson read(String text) throws InputFiles.BadInputException {
        if (!text.stripLeading().startsWith("{")) {
            throw new InputFiles.BadInputException(NOT_AN_EXPERIMENT_FILE + "it is no JSON object");
        }
        ExperimentJson file;
        try {
            file = ExperimentJson.read(text);
        } catch (IllegalArgumentException e) {
            throw new InputFiles.BadInputException(NOT_AN_EXPERIMENT_FILE + why(e));
        }
        check(file.trials());
        return file;
    }

    /**
     * Why the runner's reader refused a file, without its own prefix (which {@link #NOT_AN_EXPERIMENT_FILE} repeats)
     * and in the file's terms: the entry and what it may hold ({@link JsonErrors}), a field missing from a trial by its
     * name.
     */
    private static String why(IllegalArgumentException e) {
        if (!(e.getCause() instanceof JacksonException json)) {
            String message = String.valueOf(e.getMessage());
            return message.startsWith(NOT_AN_EXPERIMENT_FILE) ? message.substring(NOT_AN_EXPERIMENT_FILE.length())
                    : message;
        }
        String described = JsonErrors.describe(json).replace("the body is", "the file is")
                .replace("the body", "the file").replace("the server reads", "PerfLab reads");
        if (json instanceof ValueInstantiationException && rootCause(json) instanceof NullPointerException missing) {
            // a record's requireNonNull(variant, "variant"): the field, not "Cannot construct instance of …"
            String path = JsonErrors.problem(json).field();
            String field = missing.getMessage() != null && FIELD_NAME.matcher(missing.getMessage()).matches()
                    ? missing.getMessage() : null;
            described = (path == null ? "" : path) + (field == null ? "" : (path == null ? "" : ".") + field)
                    + (path == null && field == null ? "" : ": ") + (field == null ? "a value is missing or null"
                    : "is missing or null");
        }
        if (json instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null
                && mismatch.getTargetType().isEnum()) {
            // as the runner writes and reads them (OK, TIMED_OUT), where JsonErrors gives the API's spelling
            String path = JsonErrors.problem(json).field();
            described = (path == null ? "" : path + ": ") + "must be one of " + Arrays.stream(mismatch.getTargetType()
                    .getEnumConstants()).map(c -> ((Enum<?>) c).name()).collect(Collectors.joining(", "));
        }
        if (described.contains("Cannot ") || described.contains("`") || described.contains("java.")
                || described.contains("io.perflab.")) {
            // a parser's message that JsonErrors had no words for: the place, and what the file should be
            String path = JsonErrors.problem(json).field();
            described = (path == null ? "" : path + ": ") + "not what an experiment file holds there";
        }
        return PrintableText.Validator.shown(described);
    }

    private static Throwable rootCause(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }

    /**
     * Refuses what the reader lets through but no analysis can take: a null trial, a null metric (or metric read from
     * a command's output), a metric of a successful trial beyond the range of a double ({@code 1e400} is read as an
     * infinity), and trials of variants other than {@code without} and {@code with}.
     */
    private static void check(List<TrialResult> trials) throws InputFiles.BadInputException {
        Set<String> variants = new LinkedHashSet<>();
        Map<String, Integer> windows = new HashMap<>();
        for (int i = 0; i < trials.size(); i++) {
            TrialResult trial = trials.get(i);
            if (trial == null) {
                throw new InputFiles.BadInputException(NOT_AN_EXPERIMENT_FILE + "trials[" + i + "] is null; each "
                        + "trial is an object of its variant, ordinal, status and metrics");
            }
            variants.add(trial.variant());
            if (trial.ok() && trial.pair() != null && trial.pair().window() != null) {
                // the analyses lay a pair's windows out by number: the later one replaced the earlier, unsaid
                Integer earlier = windows.putIfAbsent(trial.variant() + "\n" + trial.pair().index() + "\n"
                        + trial.pair().window(), i);
                if (earlier != null) {
                    throw new InputFiles.BadInputException(NOT_AN_EXPERIMENT_FILE + "trials[" + i + "] is window "
                            + trial.pair().window() + " of pair " + trial.pair().index() + " of "
                            + shown(trial.variant()) + ", as trials[" + earlier + "] is; a paired design's file holds "
                            + "each successful window once");
                }
            }
            for (Map.Entry<String, Double> metric : trial.metrics().entrySet()) {
                String where = "trials[" + i + "].metrics." + shown(metric.getKey());
                if (metric.getValue() == null) {
                    throw new InputFiles.BadInputException(NOT_AN_EXPERIMENT_FILE + where + " is null; a metric's "
                            + "value is a number");
                }
                if (trial.ok() && Double.isInfinite(metric.getValue())) {
                    throw new InputFiles.BadInputException(NOT_AN_EXPERIMENT_FILE + where + " is beyond "
                            + DecimalNumbers.DOUBLE_RANGE + " as written; only finite numbers can be compared");
                }
            }
            for (Map.Entry<String, ?> parsed : trial.parsedMetrics().entrySet()) {
                if (parsed.getValue() == null) {
                    throw new InputFiles.BadInputException(NOT_AN_EXPERIMENT_FILE + "trials[" + i + "].parsedMetrics."
                            + shown(parsed.getKey()) + " is null; it is an object of the metric's unit, direction "
                            + "and values");
                }
            }
        }
        Set<String> others = new LinkedHashSet<>(variants);
        others.remove(VariantName.WITHOUT.label());
        others.remove(VariantName.WITH.label());
        if (!others.isEmpty()) {
            throw new InputFiles.BadInputException("its trials are of the variants " + String.join(", ",
                    variants.stream().map(ExperimentFiles::shown).toList()) + ", not without and with: a file of "
                    + "perflab ab or calibrate --out is, where perflab peers --out writes one variant per stack");
        }
    }

    /** A key or name of the file as a message shows it: escaped where it would act on the terminal, and cut short. */
    static String shown(String text) {
        return PrintableText.Validator.shown(Texts.cut(text, 80));
    }
}
