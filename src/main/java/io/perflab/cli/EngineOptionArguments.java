package io.perflab.cli;

import io.perflab.rpc.EngineOptions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** {@code option=value} arguments of engine options, checked against the engine's own parser. */
final class EngineOptionArguments {

    private EngineOptionArguments() {
    }

    /**
     * The options of {@code arguments}, in order.
     *
     * @throws ParameterException naming {@code flag}, the option at fault and what is allowed
     */
    static Map<String, String> parse(CommandLine commandLine, String flag, List<String> arguments) {
        Map<String, String> options = new LinkedHashMap<>();
        for (String argument : arguments) {
            int eq = argument.indexOf('=');
            if (eq <= 0) {
                throw new ParameterException(commandLine, flag + " takes option=value, got '" + argument
                        + "'; options: " + allowed());
            }
            options.put(argument.substring(0, eq).trim(), argument.substring(eq + 1).trim());
        }
        try {
            EngineOptions.fromMap(options);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(commandLine, flag + ": " + e.getMessage());
        }
        return options;
    }

    private static String allowed() {
        StringBuilder s = new StringBuilder();
        for (EngineOptions.OptionSpec spec : EngineOptions.optionSpecs()) {
            s.append(s.length() == 0 ? "" : ", ").append(spec.name()).append(" (").append(spec.allowedValuesText())
                    .append(')');
        }
        return s.toString();
    }
}
