package io.perflab.runner.trial;

import io.perflab.runner.rpcbench.Stack;
import io.perflab.runner.rpcbench.Workload;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one engine trial runs: engine options and the rpc-bench workload. Its {@linkplain #toArguments()
 * arguments} are those of {@code perflab trial} (the same flags as {@code perflab bench}, options as
 * {@code --set name=value}).
 *
 * @param engineOptions engine option name → value, applied in order with {@code EngineOptions#withOption}
 * @param workload the workload
 */
public record TrialSpec(Map<String, String> engineOptions, Workload workload) {

    /** The flag of one engine option, {@code --set name=value}. */
    public static final String SET = "--set";

    public TrialSpec {
        engineOptions = Collections.unmodifiableMap(new LinkedHashMap<>(engineOptions));
    }

    public List<String> toArguments() {
        List<String> args = new ArrayList<>(workload.toArguments());
        engineOptions.forEach((name, value) -> {
            args.add(SET);
            args.add(name + "=" + value);
        });
        return args;
    }

    /**
     * Reads {@link #toArguments()}: workload flags (in {@code --flag value} or {@code --flag=value} form) and
     * {@code --set name=value}; a flag left out keeps rpc-bench's default.
     *
     * @throws IllegalArgumentException naming the flag at fault
     */
    public static TrialSpec parseArguments(List<String> args) {
        Workload workload = Workload.DEFAULTS;
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String flag = arg;
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                flag = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            }
            if (!flag.equals(SET) && !Workload.FLAGS.contains(flag)) {
                throw new IllegalArgumentException("unknown trial argument '" + arg + "'; expected " + SET
                        + " name=value or one of " + Workload.FLAGS);
            }
            boolean takesValue = !flag.equals("--encryption");
            if (takesValue && value == null) {
                if (i + 1 >= args.size()) {
                    throw new IllegalArgumentException(flag + " needs a value");
                }
                value = args.get(++i);
            }
            if (flag.equals(SET)) {
                int sep = value.indexOf('=');
                if (sep <= 0) {
                    throw new IllegalArgumentException(SET + " takes name=value, got '" + value + "'");
                }
                options.put(value.substring(0, sep).trim(), value.substring(sep + 1).trim());
            } else {
                workload = workload.with(flag, value);
            }
        }
        if (!options.isEmpty() && workload.stack() != Stack.PERFLAB) {
            throw new IllegalArgumentException(SET + " sets engine options, which apply to --stack perflab only; got "
                    + SET + " " + options.keySet().iterator().next() + " with --stack " + workload.stack().label());
        }
        return new TrialSpec(options, workload);
    }
}
