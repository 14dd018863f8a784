package io.perflab.runner.trial;

import io.perflab.runner.json.RunnerJson;
import java.lang.reflect.RecordComponent;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * How a forked trial talks to the runner. Anything else the trial prints (logging, JVM warnings) is ignored, so log
 * noise cannot be mistaken for a protocol line.
 *
 * <p><b>A fresh trial</b> ({@code perflab trial SPEC}) prints one line on standard output, the prefix
 * {@value #PREFIX} followed by a JSON {@link Report} {@code {"metrics":{…},"environment":{…}}}, and exits.
 *
 * <p><b>A driven trial</b> ({@code perflab trial --driven SPEC}), one JVM of a pair of a paired design, warms up
 * and then measures the windows the runner asks for, at the times it gives on the host's monotonic clock
 * ({@link System#nanoTime()}, which is {@code CLOCK_MONOTONIC} on Linux and so comparable between processes):
 * <pre>
 * runner                                   trial JVM
 *   starts it ---------------------------> starts the load, warms up
 *             <---------------------------- PERFLAB-TRIAL-READY {"nanoTime":…,"environment":{…}}
 *   prepare -----------------------------> opens the next window's kernel meter (slow: counters per thread)
 *             <---------------------------- PERFLAB-TRIAL-PREPARED
 *   window K START END ------------------> resumes the load if paused, waits for START, measures until END
 *             <---------------------------- PERFLAB-TRIAL-WINDOW {"window":K,"startNanos":…,"endNanos":…,
 *                                                                 "metrics":{…},"environment":{…}}
 *   pause -------------------------------> stops issuing calls, waits for the outstanding ones
 *             <---------------------------- PERFLAB-TRIAL-PAUSED
 *   exit --------------------------------> shuts the load down, exits 0
 * </pre>
 * Commands are lines on the trial's standard input; the end of its input (the runner is gone) ends the trial too.
 */
public final class TrialProtocol {

    public static final String PREFIX = "PERFLAB-TRIAL-RESULT ";
    public static final String READY_PREFIX = "PERFLAB-TRIAL-READY ";
    public static final String WINDOW_PREFIX = "PERFLAB-TRIAL-WINDOW ";
    public static final String PAUSED = "PERFLAB-TRIAL-PAUSED";
    public static final String PREPARED = "PERFLAB-TRIAL-PREPARED";
    public static final String PAUSE = "pause";
    public static final String PREPARE = "prepare";
    public static final String EXIT = "exit";
    private static final String WINDOW = "window";

    private TrialProtocol() {
    }

    /** Whether {@code line} is a line of this protocol (of a fresh or a driven trial). */
    public static boolean isProtocolLine(String line) {
        return line.startsWith(PREFIX) || line.startsWith(READY_PREFIX) || line.startsWith(WINDOW_PREFIX)
                || line.equals(PAUSED) || line.equals(PREPARED);
    }

    /** The result line of a trial; metrics that are not finite are left out (JSON has no NaN). */
    public static String encode(Map<String, Double> metrics, Map<String, String> environment) {
        return PREFIX + RunnerJson.mapper().writeValueAsString(new Report(finite(metrics), environment));
    }

    /**
     * The report in {@code line}, if it is a result line.
     *
     * @throws IllegalArgumentException for a malformed result line: no JSON object, a part missing or null, a
     *     metric that is not a finite number
     */
    public static Optional<Report> decode(String line) {
        return line.startsWith(PREFIX) ? Optional.of(read(line.substring(PREFIX.length()), Report.class, "result"))
                : Optional.empty();
    }

    /** The line a driven trial prints once it is warmed up. */
    public static String encodeReady(long nanoTime, Map<String, String> environment) {
        return READY_PREFIX + RunnerJson.mapper().writeValueAsString(new Ready(nanoTime, environment));
    }

    /** The ready line's content; {@code line} must start with {@link #READY_PREFIX}. */
    public static Ready decodeReady(String line) {
        return read(line.substring(READY_PREFIX.length()), Ready.class, "ready line");
    }

    /** The line a driven trial prints after each window; metrics that are not finite are left out. */
    public static String encodeWindow(int window, long startNanos, long endNanos, Map<String, Double> metrics,
                                      Map<String, String> environment) {
        return WINDOW_PREFIX + RunnerJson.mapper().writeValueAsString(new Window(window, startNanos, endNanos,
                finite(metrics), environment));
    }

    /** The window line's content; {@code line} must start with {@link #WINDOW_PREFIX}. */
    public static Window decodeWindow(String line) {
        return read(line.substring(WINDOW_PREFIX.length()), Window.class, "window line");
    }

    /** The command to measure window {@code window} from {@code startNanos} to {@code endNanos}. */
    public static String windowCommand(int window, long startNanos, long endNanos) {
        return String.format(Locale.ROOT, "%s %d %d %d", WINDOW, window, startNanos, endNanos);
    }

    /**
     * A command line as the trial reads it.
     *
     * @throws IllegalArgumentException for a line that is no command
     */
    public static Command parseCommand(String line) {
        String[] words = line.strip().split("\\s+");
        try {
            if (words.length == 4 && words[0].equals(WINDOW)) {
                return new Command(WINDOW, Integer.parseInt(words[1]), Long.parseLong(words[2]),
                        Long.parseLong(words[3]));
            }
        } catch (NumberFormatException e) {
            // falls through to the error below
        }
        if (words.length == 1 && (words[0].equals(PAUSE) || words[0].equals(EXIT) || words[0].equals(PREPARE))) {
            return new Command(words[0], -1, 0, 0);
        }
        throw new IllegalArgumentException("not a command of the trial protocol: '" + line
                + "' (expected 'prepare', 'window K START_NANOS END_NANOS', 'pause' or 'exit')");
    }

    private static Map<String, Double> finite(Map<String, Double> metrics) {
        Map<String, Double> finite = new LinkedHashMap<>();
        metrics.forEach((key, value) -> {
            if (value != null && Double.isFinite(value)) {
                finite.put(key, value);
            }
        });
        return finite;
    }

    /**
     * The record {@code type} in {@code json}, which must be an object holding every component of it, none null,
     * with metrics that are finite JSON numbers: {@link #encode} writes nothing else, and the mapper alone would
     * take the literal {@code null} for no record at all, a null map or value for an empty one, and the string
     * {@code "NaN"} for a metric.
     *
     * @throws IllegalArgumentException saying what is malformed
     */
    private static <T extends Record> T read(String json, Class<T> type, String what) {
        try {
            JsonNode tree = RunnerJson.mapper().readTree(json);
            String problem = problem(tree, type);
            if (problem != null) {
                throw new IllegalArgumentException("malformed trial " + what + ": " + problem);
            }
            return RunnerJson.mapper().treeToValue(tree, type);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("malformed trial " + what + ": " + e.getOriginalMessage(), e);
        }
    }

    /** What is wrong with {@code tree} as a {@code type} that the mapper lets through, or null if nothing. */
    private static String problem(JsonNode tree, Class<? extends Record> type) {
        if (tree == null || !tree.isObject()) {
            return "expected a JSON object, got " + shown(tree);
        }
        for (RecordComponent component : type.getRecordComponents()) {
            JsonNode value = tree.get(component.getName());
            if (value == null || value.isNull()) {
                return "'" + component.getName() + "' is " + (value == null ? "missing" : "null");
            }
        }
        for (String map : new String[] {"metrics", "environment"}) {
            JsonNode entries = tree.get(map);
            if (entries == null) {
                continue;
            }
            if (!entries.isObject()) {
                return "'" + map + "' must be an object, got " + shown(entries);
            }
            for (Map.Entry<String, JsonNode> entry : entries.properties()) {
                JsonNode value = entry.getValue();
                if (map.equals("metrics") && (!value.isNumber() || !Double.isFinite(value.doubleValue()))) {
                    return "metric '" + entry.getKey() + "' must be a finite number, got "
                            + (value.isNumber() ? String.valueOf(value.doubleValue()) : shown(value));
                }
                if (value.isNull()) {
                    return "'" + map + "' holds null for '" + entry.getKey() + "'";
                }
            }
        }
        return null;
    }

    private static String shown(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "nothing";
        }
        String text = node.toString();
        return text.length() <= 60 ? text : text.substring(0, 60) + "…";
    }

    /** What a trial reports about itself. */
    public record Report(Map<String, Double> metrics, Map<String, String> environment) {

        public Report {
            metrics = Map.copyOf(metrics);
            environment = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        }
    }

    /**
     * A driven trial, warmed up.
     *
     * @param nanoTime its monotonic clock when it printed the line, for the runner to check that the clocks agree
     * @param environment the host, the JVM and the warmup (its length, whether it settled, its evidence)
     */
    public record Ready(long nanoTime, Map<String, String> environment) {

        public Ready {
            environment = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        }
    }

    /**
     * One window of a driven trial.
     *
     * @param window the index the runner gave
     * @param startNanos the monotonic clock at the window's start snapshot
     * @param endNanos the monotonic clock at its end snapshot
     * @param metrics the window's figures ({@link MetricKeys})
     * @param environment how the window went (requests, failed calls, JIT, others' CPU…)
     */
    public record Window(int window, long startNanos, long endNanos, Map<String, Double> metrics,
                         Map<String, String> environment) {

        public Window {
            metrics = Map.copyOf(metrics);
            environment = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        }
    }

    /**
     * A command to a driven trial.
     *
     * @param name {@code prepare}, {@code window}, {@code pause} or {@code exit}
     * @param window the window's index (window only)
     * @param startNanos when the window starts (window only)
     * @param endNanos when it ends (window only)
     */
    public record Command(String name, int window, long startNanos, long endNanos) {

        public boolean isWindow() {
            return name.equals(WINDOW);
        }
    }
}
