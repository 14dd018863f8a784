package io.perflab.runner.experiment;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A shell command run with {@code /bin/sh -c} once per trial, measured from outside with
 * {@code getrusage(RUSAGE_CHILDREN)} deltas (hyperfine-style).
 *
 * @param command the command line
 */
public record CommandVariant(String command) implements Variant {

    public CommandVariant {
        Objects.requireNonNull(command, "command");
        if (command.isBlank()) {
            throw new IllegalArgumentException("the command is empty");
        }
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("kind", "command");
        d.put("command", command);
        return d;
    }
}
