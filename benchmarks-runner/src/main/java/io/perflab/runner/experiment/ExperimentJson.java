package io.perflab.runner.experiment;

import io.perflab.runner.json.Json;
import io.perflab.runner.trial.TrialResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The experiment file: {@code {"experiment":{…plan…},"trials":[{"variant":"with","ordinal":0,"status":"OK",
 * "pid":…,"metrics":{…},"environment":{…},"error":null},…]}}. {@code perflab compare} reads
 * {@code trials[].variant}, {@code ordinal}, {@code status} and {@code metrics}.
 */
public final class ExperimentJson {

    private ExperimentJson() {
    }

    public static Map<String, Object> toJson(ExperimentPlan plan, List<TrialResult> results) {
        return toJson(plan.describe(), results);
    }

    private static Map<String, Object> toJson(Map<String, Object> experiment, List<TrialResult> results) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("experiment", experiment);
        List<Object> trials = new ArrayList<>(results.size());
        results.forEach(r -> trials.add(r.toJson()));
        json.put("trials", trials);
        return json;
    }

    /**
     * Writes the file through a temporary sibling and a rename, so that a reader (or a crash) never sees half
     * a file.
     */
    public static void write(Path file, ExperimentPlan plan, List<TrialResult> results) throws IOException {
        write(file, plan.describe(), results);
    }

    /** Writes the file of a plan of several variants: its trials' {@code variant} is the variant's name. */
    public static void write(Path file, MultiVariantPlan plan, List<TrialResult> results) throws IOException {
        write(file, plan.describe(), results);
    }

    private static void write(Path file, Map<String, Object> experiment, List<TrialResult> results)
            throws IOException {
        Path target = file.toAbsolutePath();
        Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
        Files.writeString(temporary, Json.writePretty(toJson(experiment, results)) + "\n", StandardCharsets.UTF_8);
        try {
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (java.nio.file.AtomicMoveNotSupportedException e) {
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** The trials of an experiment file. */
    @SuppressWarnings("unchecked")
    public static List<TrialResult> readTrials(String text) {
        Map<String, Object> json = Json.parseObject(text);
        List<TrialResult> results = new ArrayList<>();
        if (json.get("trials") instanceof List<?> trials) {
            for (Object trial : trials) {
                results.add(TrialResult.fromJson((Map<String, Object>) trial));
            }
        }
        return results;
    }
}
