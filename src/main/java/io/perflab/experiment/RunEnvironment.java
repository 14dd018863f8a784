package io.perflab.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What an experiment's runs ran on, as the page and the reports show it: the entries the successful runs recorded,
 * whose figures the results are, each with its distinct values. A run's own command line and process id say
 * nothing of the machine and are left out; so are failed runs, which may have ended before recording it.
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
}
