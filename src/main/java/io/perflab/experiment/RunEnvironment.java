package io.perflab.experiment;

import io.perflab.display.Format;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What an experiment's runs ran on, as the page and the reports show it: the entries the successful runs recorded,
 * whose figures the results are, each with its distinct values, said alike in every place ({@link #describe}). A
 * run's own command line and process id say nothing of the machine and are left out; so are failed runs, which may
 * have ended before recording it.
 */
public final class RunEnvironment {

    /** Entries that differ from run to run by their nature. */
    static final Set<String> PER_RUN = Set.of("command", "pid");

    private RunEnvironment() {
    }

    /**
     * Each entry of the OK runs of {@code runs} with its distinct values, in the order the runner recorded them.
     * Most entries (JVM, host, CPU) have one value; some (load, warmup) vary per run.
     */
    public static Map<String, List<String>> of(List<RunRecord> runs) {
        Map<String, Set<String>> values = new LinkedHashMap<>();
        for (RunRecord run : runs) {
            if (!run.ok()) {
                continue;
            }
            run.environment().forEach((key, value) -> {
                if (!PER_RUN.contains(key)) {
                    values.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(value == null ? "" : value);
                }
            });
        }
        Map<String, List<String>> environment = new LinkedHashMap<>();
        values.forEach((key, distinct) -> environment.put(key, new ArrayList<>(distinct)));
        return environment;
    }

    /** The distinct values of an entry that varies shown by name, at most this many. */
    static final int TEXTS_SHOWN = 3;

    /**
     * One entry's distinct values (of {@link #of}) as the page and the reports show them: one value as it is; numbers
     * by their range and how many there were ({@code varies per run: 53.03 to 90.4 (4 different values)}); text by
     * its first {@value #TEXTS_SHOWN} values and, when there are more, how many.
     */
    public static String describe(List<String> values) {
        if (values.size() == 1) {
            return values.get(0);
        }
        String count = " (" + values.size() + " different values)";
        try {
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            for (String value : values) {
                double number = Double.parseDouble(value);
                min = Math.min(min, number);
                max = Math.max(max, number);
            }
            return "varies per run: " + Format.value(min) + " to " + Format.value(max) + count;
        } catch (NumberFormatException notNumeric) {
            List<String> shown = values.subList(0, Math.min(TEXTS_SHOWN, values.size()));
            return "varies per run: " + String.join(" · ", shown)
                    + (values.size() > shown.size() ? " …" + count : "");
        }
    }
}
