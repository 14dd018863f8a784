package io.perflab.experiment;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.CommandVariant;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.TrialOrder;
import io.perflab.runner.experiment.Variant;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.system.ApiProblem;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * Turns an {@link ExperimentRequest} into an {@link ExperimentSpec}, or throws a 400 {@link ApiProblem} whose
 * detail names the field and what is allowed. Nothing is queued on an error.
 */
@Component
public class ExperimentValidator {

    static final int MIN_RUNS = 2;
    static final int MAX_RUNS = 1000;
    static final int DEFAULT_RUNS = 40;
    static final double MAX_RUN_SECONDS = 3600;
    static final double MAX_WARMUP_SECONDS = 600;
    static final int MAX_TRIAL_TIMEOUT_SECONDS = 86_400;

    /** JSON workload field → rpc-bench flag, with the largest sane value of each numeric field. */
    private static final Map<String, String> WORKLOAD_FLAGS = new LinkedHashMap<>();
    private static final Map<String, Integer> WORKLOAD_MAXIMA = Map.of(
            "clientThreads", 1024, "asyncConcurrency", 100_000, "workerThreads", 256, "serverReactors", 64,
            "requestBytes", 16 * 1024 * 1024, "responseBytes", 16 * 1024 * 1024);

    static {
        WORKLOAD_FLAGS.put("mode", "--mode");
        WORKLOAD_FLAGS.put("clientThreads", "--client-threads");
        WORKLOAD_FLAGS.put("asyncConcurrency", "--async-concurrency");
        WORKLOAD_FLAGS.put("workerThreads", "--worker-threads");
        WORKLOAD_FLAGS.put("serverReactors", "--server-reactors");
        WORKLOAD_FLAGS.put("requestBytes", "--request-bytes");
        WORKLOAD_FLAGS.put("responseBytes", "--response-bytes");
        WORKLOAD_FLAGS.put("warmupSeconds", "--warmup-seconds");
        WORKLOAD_FLAGS.put("runSeconds", "--run-seconds");
        WORKLOAD_FLAGS.put("encryption", "--encryption");
    }

    private final CommandExperimentsPolicy commands;
    private final JvmFlagPolicy jvmFlags;

    public ExperimentValidator(CommandExperimentsPolicy commands, JvmFlagPolicy jvmFlags) {
        this.commands = commands;
        this.jvmFlags = jvmFlags;
    }

    /** Validates {@code request}; {@code admin} tells whether the caller may run commands. */
    public ExperimentSpec validate(ExperimentRequest request, boolean admin) {
        if (request == null) {
            throw ApiProblem.badRequest("the request body is missing: send a JSON object with at least 'name'");
        }
        String name = required("name", request.name(), 200);
        String description = optional("description", request.description(), 4000);
        ExperimentKind kind = kind(request.kind());
        int runs = range("runsPerVariant", request.runsPerVariant(), MIN_RUNS, MAX_RUNS, DEFAULT_RUNS);
        TrialOrder order = order(request.order());
        long seed = request.seed() == null ? 1 : request.seed();
        int maxFailures = range("maxFailures", request.maxFailures(), 0, MAX_RUNS * 2,
                ExperimentPlan.DEFAULT_MAX_FAILURES);

        Variant without;
        Variant with;
        String presetId = null;
        if (kind == ExperimentKind.COMMAND) {
            commands.check(admin);
            if (request.preset() != null) {
                throw ApiProblem.badRequest("preset: presets are engine experiments; a command experiment takes "
                        + "'withoutCommand' and 'withCommand'");
            }
            without = new CommandVariant(required("withoutCommand", request.withoutCommand(), 4000));
            with = new CommandVariant(required("withCommand", request.withCommand(), 4000));
            if (without.equals(with)) {
                throw ApiProblem.badRequest("withCommand: the two commands are identical, so there is no difference "
                        + "to test");
            }
        } else {
            Map<String, String> withoutOptions = request.without();
            Map<String, String> withOptions = request.with();
            Workload workload = Workload.DEFAULTS;
            if (request.preset() != null) {
                ExperimentPreset preset = ExperimentPreset.find(request.preset()).orElseThrow(() ->
                        ApiProblem.badRequest("preset: unknown preset '" + request.preset() + "'; allowed: "
                                + ExperimentPreset.names()));
                presetId = preset.id();
                withoutOptions = merge(preset.without(), withoutOptions);
                withOptions = merge(preset.with(), withOptions);
                workload = workload.withPayload(preset.requestBytes(), preset.responseBytes());
            } else if (withoutOptions == null || withOptions == null) {
                throw ApiProblem.badRequest("without/with: give both variants' engine options (e.g. "
                        + "\"without\": {\"completion\": \"monitor\"}, \"with\": {\"completion\": \"notification\"}) "
                        + "or a preset (" + ExperimentPreset.names() + ")");
            }
            EngineOptions withoutEngine = engineOptions("without", withoutOptions);
            EngineOptions withEngine = engineOptions("with", withOptions);
            workload = workload(request.workload(), workload);
            List<String> withoutJvm = jvmArgs("withoutJvmArgs", request.withoutJvmArgs(), admin);
            List<String> withJvm = jvmArgs("withJvmArgs", request.withJvmArgs(), admin);
            if (withoutEngine.equals(withEngine) && withoutJvm.equals(withJvm)) {
                throw ApiProblem.badRequest("with: the two variants are identical (" + withEngine.describe()
                        + "), so there is no difference to test; change at least one engine option or JVM flag");
            }
            without = new EngineVariant(withoutEngine.describe(), workload, withoutJvm, Optional.empty());
            with = new EngineVariant(withEngine.describe(), workload, withJvm, Optional.empty());
        }

        ExperimentPlan plan = ExperimentPlan.of(without, with, runs).withOrder(order).withSeed(seed)
                .withMaxFailures(maxFailures);
        if (request.trialTimeoutSeconds() != null) {
            int timeout = range("trialTimeoutSeconds", request.trialTimeoutSeconds(), 1, MAX_TRIAL_TIMEOUT_SECONDS, 0);
            plan = plan.withTrialTimeout(Duration.ofSeconds(timeout));
        }
        return new ExperimentSpec(name, description, kind, presetId, plan);
    }

    private static Map<String, String> merge(Map<String, String> base, Map<String, String> overrides) {
        Map<String, String> merged = new LinkedHashMap<>(base);
        if (overrides != null) {
            merged.putAll(overrides);
        }
        return merged;
    }

    private static EngineOptions engineOptions(String field, Map<String, String> options) {
        try {
            return EngineOptions.fromMap(options);
        } catch (IllegalArgumentException e) {
            throw ApiProblem.badRequest(field + ": " + e.getMessage());
        }
    }

    private static Workload workload(Map<String, Object> fields, Workload start) {
        Workload workload = start;
        if (fields == null) {
            return workload;
        }
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            String key = e.getKey();
            String flag = WORKLOAD_FLAGS.get(key);
            if (flag == null) {
                throw ApiProblem.badRequest("workload." + key + ": unknown workload field; allowed: "
                        + String.join(", ", WORKLOAD_FLAGS.keySet()));
            }
            Object value = e.getValue();
            if (value == null) {
                continue;
            }
            String text = String.valueOf(value);
            Integer max = WORKLOAD_MAXIMA.get(key);
            try {
                if (key.equals("encryption")) {
                    if (!(value instanceof Boolean enabled)) {
                        throw new IllegalArgumentException("must be true or false, got " + text);
                    }
                    workload = workload.withEncryption(enabled);
                    continue;
                }
                if (max != null) {
                    if (!(value instanceof Number number) || number.doubleValue() != Math.rint(number.doubleValue())
                            || number.doubleValue() > max || number.doubleValue() < 0) {
                        throw new IllegalArgumentException("must be a whole number between 0 and " + max + ", got "
                                + text);
                    }
                }
                workload = workload.with(flag, text);
            } catch (IllegalArgumentException ex) {
                throw ApiProblem.badRequest("workload." + key + ": " + ex.getMessage());
            }
        }
        double runSeconds = workload.run().toMillis() / 1000.0;
        if (runSeconds > MAX_RUN_SECONDS) {
            throw ApiProblem.badRequest("workload.runSeconds: at most " + (int) MAX_RUN_SECONDS + " s, got "
                    + runSeconds);
        }
        double warmupSeconds = workload.warmup().duration().toMillis() / 1000.0;
        if (warmupSeconds > MAX_WARMUP_SECONDS) {
            throw ApiProblem.badRequest("workload.warmupSeconds: at most " + (int) MAX_WARMUP_SECONDS + " s, got "
                    + warmupSeconds);
        }
        return workload;
    }

    private List<String> jvmArgs(String field, List<String> args, boolean admin) {
        if (args == null) {
            return List.of();
        }
        jvmFlags.check(field, args, admin);
        for (String arg : args) {
            if (arg == null || !arg.startsWith("-") || arg.isBlank()) {
                throw ApiProblem.badRequest(field + ": every entry must be a JVM flag starting with '-', got '"
                        + arg + "'");
            }
        }
        return List.copyOf(args);
    }

    private static ExperimentKind kind(String text) {
        if (text == null) {
            return ExperimentKind.ENGINE;
        }
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "engine" -> ExperimentKind.ENGINE;
            case "command" -> ExperimentKind.COMMAND;
            default -> throw ApiProblem.badRequest("kind: unknown kind '" + text + "'; allowed: engine, command "
                    + "(uploads go to /api/v1/uploads)");
        };
    }

    private static TrialOrder order(String text) {
        if (text == null) {
            return TrialOrder.INTERLEAVED;
        }
        try {
            return TrialOrder.parse(text);
        } catch (IllegalArgumentException e) {
            throw ApiProblem.badRequest("order: " + e.getMessage());
        }
    }

    private static int range(String field, Integer value, int min, int max, int fallback) {
        if (value == null) {
            return fallback;
        }
        if (value < min || value > max) {
            throw ApiProblem.badRequest(field + ": must be between " + min + " and " + max + ", got " + value);
        }
        return value;
    }

    private static String required(String field, String value, int maxLength) {
        if (value == null || value.isBlank()) {
            throw ApiProblem.badRequest(field + ": required and must not be blank");
        }
        return optional(field, value.strip(), maxLength);
    }

    private static String optional(String field, String value, int maxLength) {
        if (value != null && value.length() > maxLength) {
            throw ApiProblem.badRequest(field + ": at most " + maxLength + " characters, got " + value.length());
        }
        return value;
    }
}
