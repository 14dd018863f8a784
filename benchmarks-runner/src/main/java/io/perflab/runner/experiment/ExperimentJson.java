package io.perflab.runner.experiment;

import io.perflab.runner.json.RunnerJson;
import io.perflab.runner.trial.TrialResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;

/**
 * The experiment file of {@code perflab ab --out}: {@code {"experiment":{…plan…},"trials":[{"variant":"with",
 * "ordinal":0,"status":"OK","pid":…,"metrics":{…},"environment":{…},"error":null},…]}}. {@code perflab compare}
 * reads its trials back.
 *
 * @param experiment the plan, as {@link ExperimentPlan#describe()} gives it
 * @param trials every finished trial so far
 */
public record ExperimentJson(Map<String, Object> experiment, List<TrialResult> trials) {

    /**
     * Writes the file through a temporary sibling and a rename, so that a reader (or a crash) never sees half
     * a file.
     */
    public static void write(Path file, ExperimentPlan plan, List<TrialResult> results) throws IOException {
        write(file, new ExperimentJson(plan.describe(), results));
    }

    /** Writes the file of a plan of several variants: its trials' {@code variant} is the variant's name. */
    public static void write(Path file, MultiVariantPlan plan, List<TrialResult> results) throws IOException {
        write(file, new ExperimentJson(plan.describe(), results));
    }

    private static void write(Path file, ExperimentJson content) throws IOException {
        Path target = file.toAbsolutePath();
        Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
        Files.writeString(temporary, RunnerJson.mapper().writerWithDefaultPrettyPrinter()
                .writeValueAsString(content) + "\n");
        try {
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (java.nio.file.AtomicMoveNotSupportedException e) {
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * The trials of an experiment file.
     *
     * @throws IllegalArgumentException saying where the text is not an experiment file
     */
    public static List<TrialResult> readTrials(String text) {
        return read(text).trials();
    }

    /**
     * An experiment file: its plan as written and its trials.
     *
     * @throws IllegalArgumentException saying where the text is not an experiment file
     */
    public static ExperimentJson read(String text) {
        try {
            ExperimentJson file = RunnerJson.mapper().readValue(text, ExperimentJson.class);
            if (file.trials() == null) {
                throw new IllegalArgumentException("not an experiment file of perflab ab --out: it has no trials");
            }
            return file.experiment() == null ? new ExperimentJson(Map.of(), file.trials()) : file;
        } catch (JacksonException e) {
            // a value its record refused says why itself, without the parser's "Cannot construct instance of …"
            String why = e.getCause() instanceof IllegalArgumentException refused ? refused.getMessage()
                    : e.getOriginalMessage();
            throw new IllegalArgumentException("not an experiment file of perflab ab --out: " + why + locationOf(e),
                    e);
        }
    }

    /** The design the file's plan names; a plan without one (as fresh plans are written) is {@code fresh}. */
    public ExperimentDesign design() {
        Object label = experiment.get("design");
        return label == null ? ExperimentDesign.FRESH : ExperimentDesign.parse(label.toString());
    }

    private static String locationOf(JacksonException e) {
        return e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ", column "
                + e.getLocation().getColumnNr() + ")";
    }
}
