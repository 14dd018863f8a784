package io.perflab.runner.experiment;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A shell command run with {@code /bin/sh -c} once per trial, measured from outside with
 * {@code getrusage(RUSAGE_CHILDREN)} deltas (hyperfine-style), and optionally from inside: with a
 * {@code metricsFormat}, what each run prints is read by a {@link MetricsReader} and its metrics become the trial's
 * samples beside the {@code getrusage} figures.
 *
 * @param command the command line; {@value #OUTPUT_PLACEHOLDER}, if present, is replaced in each trial by the path of
 *     a fresh empty file whose content is then read instead of standard output (for tools that write results to a
 *     file, such as JMH's {@code -rff})
 * @param metricsFormat the format of the output (an upload format: {@code rpcbench}, {@code jmh}, {@code gobench}…),
 *     or empty to read nothing from it
 * @param directory the working directory of each run, or empty for the runner's
 * @param environment variables set for each run, over the runner's own environment
 */
public record CommandVariant(String command, Optional<String> metricsFormat, Optional<Path> directory,
                             Map<String, String> environment) implements Variant {

    /** Stands for the file a run writes its results to. */
    public static final String OUTPUT_PLACEHOLDER = "{output}";

    private static final Pattern VARIABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    public CommandVariant {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(metricsFormat, "metricsFormat");
        Objects.requireNonNull(directory, "directory");
        if (command.isBlank()) {
            throw new IllegalArgumentException("the command is empty");
        }
        String unpassable = unpassable(command);
        if (unpassable != null) {
            throw new IllegalArgumentException("the command holds " + unpassable);
        }
        if (command.contains(OUTPUT_PLACEHOLDER) && metricsFormat.isEmpty()) {
            throw new IllegalArgumentException("the command writes to " + OUTPUT_PLACEHOLDER + " but no metrics "
                    + "format says how to read it");
        }
        environment = environment == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        environment.forEach((name, value) -> {
            if (name == null || !VARIABLE_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("environment variable names are letters, digits and '_', not "
                        + "starting with a digit; got '" + name + "'");
            }
            if (value == null) {
                throw new IllegalArgumentException("the value of environment variable " + name + " is missing");
            }
            String bad = unpassable(value);
            if (bad != null) {
                throw new IllegalArgumentException("the value of environment variable " + name + " holds " + bad);
            }
        });
    }

    /**
     * What in {@code text} no process can be given, as an argument or in its environment, or null: a NUL (which ends
     * the C string), or half of a surrogate pair (which UTF-8 cannot encode; Java would pass '?' in its place).
     */
    private static String unpassable(String text) {
        if (text.indexOf('\0') >= 0) {
            return "a NUL character, which no process can be given";
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return String.format("an unpaired surrogate (U+%04X at character %d), which is not text", (int) c,
                        i + 1);
            }
        }
        return null;
    }

    /** A command whose output is not read, run in the runner's directory and environment. */
    public CommandVariant(String command) {
        this(command, Optional.empty(), Optional.empty(), Map.of());
    }

    /** Whether the command writes its results to {@value #OUTPUT_PLACEHOLDER} rather than to standard output. */
    public boolean writesOutputFile() {
        return command.contains(OUTPUT_PLACEHOLDER);
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("kind", "command");
        d.put("command", command);
        metricsFormat.ifPresent(format -> d.put("metricsFormat", format));
        directory.ifPresent(dir -> d.put("directory", dir.toString()));
        if (!environment.isEmpty()) {
            d.put("environment", environment);
        }
        return d;
    }
}
