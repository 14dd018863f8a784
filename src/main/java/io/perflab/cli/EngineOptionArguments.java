package io.perflab.cli;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.rpcbench.Stack;
import io.perflab.runner.rpcbench.Workload;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * {@code option=value} arguments of engine options, checked against the engine's own parser; on {@code ab}'s
 * sides also {@code stack=…}.
 */
final class EngineOptionArguments {

    /** The pseudo-option of {@code ab}'s sides that selects the stack. */
    static final String STACK = "stack";

    private EngineOptionArguments() {
    }

    /**
     * The options of {@code arguments}, in order.
     *
     * @throws ParameterException naming {@code flag}, the option at fault and what is allowed
     */
    static EngineOptions parse(CommandLine commandLine, String flag, List<String> arguments) {
        return options(commandLine, flag, names(commandLine, flag, arguments));
    }

    private static EngineOptions options(CommandLine commandLine, String flag, Map<String, String> options) {
        try {
            return EngineOptions.fromMap(options);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(commandLine, flag + ": " + e.getMessage());
        }
    }

    private static Map<String, String> names(CommandLine commandLine, String flag, List<String> arguments) {
        Map<String, String> options = new LinkedHashMap<>();
        for (String argument : arguments) {
            int eq = argument.indexOf('=');
            if (eq <= 0) {
                throw new ParameterException(commandLine, flag + " takes option=value, got '" + argument
                        + "'; options: " + allowed());
            }
            putOnce(commandLine, flag, options, argument.substring(0, eq).strip(), argument.substring(eq + 1).strip());
        }
        return options;
    }

    /** Adds {@code name=value}; a name given before is refused, where the last one would silently have won. */
    private static void putOnce(CommandLine commandLine, String flag, Map<String, String> options, String name,
                                String value) {
        String previous = options.putIfAbsent(name, value);
        if (previous != null) {
            throw new ParameterException(commandLine, flag + " sets " + name + " twice ('" + previous + "' and '"
                    + value + "'); give each option once");
        }
    }

    /**
     * The options of one side of {@code ab}: engine options, plus the pseudo-option {@code stack=perflab|grpc|netty}
     * that puts another stack under the same workload.
     *
     * @param workload the workload of both sides, whose stack {@code stack=} replaces
     * @throws ParameterException naming {@code flag}: a bad option or stack, engine options with another stack, or
     *     {@code tls=false} with {@code --encryption}, which turns tls on for both sides
     */
    static VariantArguments parseVariant(CommandLine commandLine, String flag, List<String> arguments,
                                         Workload workload) {
        requireAgreeingTls(commandLine, flag, arguments);
        List<String> engine = new ArrayList<>();
        Workload variantWorkload = workload;
        Map<String, String> stacks = new LinkedHashMap<>();
        for (String argument : arguments) {
            int eq = argument.indexOf('=');
            if (eq > 0 && argument.substring(0, eq).strip().equals(STACK)) {
                putOnce(commandLine, flag, stacks, STACK, argument.substring(eq + 1).strip());
                try {
                    variantWorkload = variantWorkload.withStack(Stack.parse(argument.substring(eq + 1)));
                } catch (IllegalArgumentException e) {
                    throw new ParameterException(commandLine, flag + " " + argument + ": " + e.getMessage());
                }
            } else {
                engine.add(argument);
            }
        }
        Map<String, String> options = names(commandLine, flag, engine);
        if (!options.isEmpty() && variantWorkload.stack() != Stack.PERFLAB) {
            throw new ParameterException(commandLine, flag + ": engine option " + options.keySet().iterator().next()
                    + " applies to stack=perflab only, not stack=" + variantWorkload.stack().label());
        }
        return new VariantArguments(options(commandLine, flag, options), variantWorkload);
    }

    /** Refuses engine options ({@code flag}) with a stack other than the engine. */
    static void requireEngineStack(CommandLine commandLine, String flag, List<String> arguments, Stack stack) {
        if (!arguments.isEmpty() && stack != Stack.PERFLAB) {
            throw new ParameterException(commandLine, flag + " sets engine options, which apply to --stack perflab "
                    + "only; got " + flag + " " + arguments.get(0) + " with --stack " + stack.label());
        }
    }

    /**
     * Refuses {@code flag tls=false} with {@code --encryption}, which turns the engine's {@code tls} option on
     * whatever {@code flag} said: the one or the other was ignored.
     */
    static void requireAgreeingTls(CommandLine commandLine, String flag, List<String> arguments) {
        if (!commandLine.getParseResult().hasMatchedOption("--encryption")) {
            return;
        }
        for (String argument : arguments) {
            int eq = argument.indexOf('=');
            if (eq > 0 && argument.substring(0, eq).strip().equals(EngineOptions.TLS)
                    && "false".equalsIgnoreCase(argument.substring(eq + 1).strip())) {
                throw new ParameterException(commandLine, flag + " " + argument + " and --encryption contradict each "
                        + "other: --encryption turns the engine's tls option on; give one of them");
            }
        }
    }

    /**
     * One side of {@code ab}.
     *
     * @param engineOptions its engine options
     * @param workload the shared workload with this side's stack
     */
    record VariantArguments(EngineOptions engineOptions, Workload workload) {
    }

    private static String allowed() {
        StringBuilder s = new StringBuilder();
        for (EngineOptions.OptionSpec spec : EngineOptions.optionSpecs()) {
            s.append(s.length() == 0 ? "" : ", ").append(spec.name()).append(" (").append(spec.allowedValuesText())
                    .append(')');
        }
        return s.toString() + "; and " + STACK + " (perflab, grpc, netty) on ab's sides";
    }
}
