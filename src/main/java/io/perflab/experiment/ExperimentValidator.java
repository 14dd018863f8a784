package io.perflab.experiment;

import io.perflab.agent.HostLabels;
import io.perflab.paired.PairedInput;
import io.perflab.paired.SequentialStopping;
import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.CommandVariant;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.MetricsReader;
import io.perflab.runner.experiment.TrialOrder;
import io.perflab.runner.experiment.Variant;
import io.perflab.runner.json.RunnerJson;
import io.perflab.runner.rpcbench.InvalidSettingException;
import io.perflab.runner.rpcbench.Stack;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.rpcbench.WorkloadSettings;
import io.perflab.system.InvalidInputException;
import io.perflab.system.PrintableText;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Turns an {@link ExperimentRequest} whose fields are each within bounds (Bean Validation, at the API and the
 * form) into an {@link ExperimentSpec}: it checks how the fields fit together — a known preset, engine options
 * the engine accepts, two variants that differ, JVM flags this caller may give — and throws
 * {@link InvalidInputException} naming the field otherwise. Nothing is queued on an error. A re-run of a stored
 * plan is checked here too, against the same policies, so that the rules of who may run what live in one place.
 *
 * <p>Over 300 lines: every field of both kinds of request (engine and command) and how they fit together.
 */
@Component
public class ExperimentValidator {

    static final int MIN_RUNS = 2;
    static final int MAX_RUNS = 1000;
    static final int DEFAULT_RUNS = 40;
    static final int MAX_TRIAL_TIMEOUT_SECONDS = 86_400;

    private final CommandExperimentsPolicy commands;
    private final JvmFlagPolicy jvmFlags;
    private final MetricsReader metricsReader;

    /**
     * @param metricsReader reads what the commands of a command experiment print; its formats are those a request
     *     may name
     */
    @Autowired
    public ExperimentValidator(CommandExperimentsPolicy commands, JvmFlagPolicy jvmFlags, MetricsReader metricsReader) {
        this.commands = commands;
        this.jvmFlags = jvmFlags;
        this.metricsReader = metricsReader;
    }

    /** A validator that knows no output formats. */
    public ExperimentValidator(CommandExperimentsPolicy commands, JvmFlagPolicy jvmFlags) {
        this(commands, jvmFlags, MetricsReader.NONE);
    }

    /**
     * The output formats of command experiments if this caller may create them (they are enabled, and {@code admin});
     * empty otherwise.
     */
    public Optional<Set<String>> commandFormats(boolean admin) {
        return commands.enabled() && admin ? Optional.of(metricsReader.formats()) : Optional.empty();
    }

    /**
     * Throws as {@link #validate} would if this caller asked for {@code plan} anew: 403 for a command experiment
     * unless they are enabled and {@code admin}, 400 for a JVM flag beyond the allow-list unless raw flags are
     * allowed and {@code admin}.
     */
    void checkRerun(ExperimentKind kind, ExperimentPlan plan, HostLabels hostLabels, boolean admin) {
        if (kind == ExperimentKind.COMMAND) {
            commands.check(admin);
            return;
        }
        if (plan.without() instanceof EngineVariant without) {
            jvmFlags.check("withoutJvmArgs", without.jvmArgs(), admin, hostLabels);
        }
        if (plan.with() instanceof EngineVariant with) {
            jvmFlags.check("withJvmArgs", with.jvmArgs(), admin, hostLabels);
        }
    }

    /** Validates {@code request}; {@code admin} tells whether the caller may run commands and raw JVM flags. */
    public ExperimentSpec validate(ExperimentRequest request, boolean admin) {
        if (request == null) {
            throw InvalidInputException.of(null, "the request body is missing: send a JSON object with at least "
                    + "'name'");
        }
        if (request.name() == null || request.name().isBlank()) {
            throw InvalidInputException.of("name", "required and must not be blank");
        }
        ExperimentKind kind = kind(request.kind());
        ExperimentDesign design = PairedRequestFields.design(request, kind);
        int runs = design.paired() ? (request.pairs() == null
                ? PairedInput.defaultPairs(kind == ExperimentKind.COMMAND) : request.pairs())
                : request.runsPerVariant() == null ? DEFAULT_RUNS : request.runsPerVariant();
        // before the JVM flags: this server's fixed flags count with them only if its built-in agent may run it
        HostLabels hostLabels = AgentCoordinator.labels("hostLabels", request.hostLabels());
        Variant without;
        Variant with;
        String presetId = null;
        if (kind == ExperimentKind.COMMAND) {
            commands.check(admin);
            if (request.preset() != null) {
                throw InvalidInputException.of("preset", "presets are engine experiments; a command experiment "
                        + "takes 'withoutCommand' and 'withCommand'");
            }
            refuseEngineSettings(request);
            Optional<String> format = metricsFormat(request.metricsFormat());
            without = commandVariant("without", required("withoutCommand", request.withoutCommand()), format,
                    request.withoutDirectory(), request.withoutEnvironment());
            with = commandVariant("with", required("withCommand", request.withCommand()), format,
                    request.withDirectory(), request.withEnvironment());
            if (without.equals(with)) {
                throw InvalidInputException.of("withCommand", "the two commands are identical, run in the same "
                        + "directory and environment, so there is no difference to test");
            }
        } else {
            refuseCommandSettings(request);
            Map<String, String> withoutOptions = request.without();
            Map<String, String> withOptions = request.with();
            Workload base = design.paired() ? Workload.PAIRED_DEFAULTS : Workload.DEFAULTS;
            if (request.preset() != null) {
                ExperimentPreset preset = ExperimentPreset.find(request.preset()).orElseThrow(() ->
                        InvalidInputException.of("preset", "unknown preset '"
                                + PrintableText.Validator.quoted(request.preset()) + "'; allowed: "
                                + ExperimentPreset.names()));
                presetId = preset.id();
                withoutOptions = merge(preset.without(), withoutOptions);
                withOptions = merge(preset.with(), withOptions);
                base = base.withPayload(preset.requestBytes(), preset.responseBytes());
            } else if (withoutOptions == null || withOptions == null) {
                throw InvalidInputException.of(withoutOptions == null ? "without" : "with", "give both variants' "
                        + "engine options (e.g. \"without\": {\"completion\": \"monitor\"}, \"with\": "
                        + "{\"completion\": \"notification\"}) or a preset (" + ExperimentPreset.names() + ")");
            }
            EngineOptions withoutEngine = engineOptions("without", withoutOptions);
            EngineOptions withEngine = engineOptions("with", withOptions);
            Workload workload = workload(request.workload(), base);
            List<String> withoutJvm = jvmArgs("withoutJvmArgs", request.withoutJvmArgs(), admin, hostLabels);
            List<String> withJvm = jvmArgs("withJvmArgs", request.withJvmArgs(), admin, hostLabels);
            if (withoutEngine.equals(withEngine) && withoutJvm.equals(withJvm)) {
                throw InvalidInputException.of("with", "the two variants are identical (" + withEngine
                        + "), so there is no difference to test; change at least one engine option or JVM flag");
            }
            without = new EngineVariant(withoutEngine, workload, withoutJvm, Optional.empty());
            with = new EngineVariant(withEngine, workload, withJvm, Optional.empty());
        }

        ExperimentPlan plan = ExperimentPlan.of(without, with, runs).withOrder(order(request.order()))
                .withSeed(request.seed() == null ? 1 : request.seed())
                .withMaxFailures(request.maxFailures() == null ? ExperimentPlan.DEFAULT_MAX_FAILURES
                        : request.maxFailures());
        if (request.trialTimeoutSeconds() != null) {
            plan = plan.withTrialTimeout(Duration.ofSeconds(request.trialTimeoutSeconds()));
        }
        if (!design.paired()) {
            return new ExperimentSpec(request.name().strip(), request.description(), kind, presetId, plan,
                    PairedStopping.NONE, hostLabels);
        }
        plan = plan.withDesign(design, request.windowsPerPair() == null ? PairedInput.DEFAULT_WINDOWS_PER_PAIR
                : request.windowsPerPair());
        PairedStopping stopping = PairedRequestFields.stopping(request, kind);
        for (SequentialStopping.Target target : stopping.targets()) {
            PairedInput.uncounted(target.metric(), plan).ifPresent(why -> {
                throw InvalidInputException.of("target", target.metric() + " would not be measured, so its target "
                        + "could never be settled: " + why);
            });
        }
        return new ExperimentSpec(request.name().strip(), request.description(), kind, presetId, plan, stopping,
                hostLabels);
    }

    /** {@code base} with the user's options over it; an empty value keeps the base's (the form's "default"). */
    private static Map<String, String> merge(Map<String, String> base, Map<String, String> overrides) {
        Map<String, String> merged = new LinkedHashMap<>(base);
        if (overrides != null) {
            overrides.forEach((name, value) -> {
                if (value != null && !value.isBlank()) {
                    merged.put(name, value);
                }
            });
        }
        return merged;
    }

    private static EngineOptions engineOptions(String field, Map<String, String> options) {
        try {
            return EngineOptions.fromMap(merge(Map.of(), options));
        } catch (IllegalArgumentException e) {
            throw InvalidInputException.of(field, e.getMessage());
        }
    }

    private static Workload workload(WorkloadSettings settings, Workload base) {
        Workload workload;
        try {
            workload = (settings == null ? WorkloadSettings.NONE : settings).applyTo(base);
        } catch (InvalidSettingException e) {
            throw InvalidInputException.of("workload." + e.field(), e.problem());
        } catch (IllegalArgumentException e) {
            throw InvalidInputException.of("workload.warmupSeconds", e.getMessage());
        }
        if (workload.stack() != Stack.PERFLAB) {
            throw InvalidInputException.of("workload.stack", "the service runs PerfLab's engine; compare it with "
                    + "other stacks on the command line with perflab peers");
        }
        return workload;
    }

    private List<String> jvmArgs(String field, List<String> args, boolean admin, HostLabels hostLabels) {
        if (args == null) {
            return List.of();
        }
        jvmFlags.check(field, args, admin, hostLabels);
        for (String arg : args) {
            if (!arg.startsWith("-") || arg.isBlank()) {
                throw InvalidInputException.of(field, "every entry must be a JVM flag starting with '-', got '"
                        + PrintableText.Validator.quoted(arg) + "'");
            }
        }
        checkStoredLength(field, args, MAX_STORED_JVM_ARGS);
        return List.copyOf(args);
    }

    /** The column a command variant's environment is stored in, as JSON ({@code V8}). */
    static final int MAX_STORED_ENVIRONMENT = 16_000;

    /** The column an engine variant's JVM flags are stored in, as JSON ({@code V2}). */
    static final int MAX_STORED_JVM_ARGS = 4000;

    /**
     * Refuses a value whose JSON, as it is stored, exceeds its column: each entry within its own bound, together they
     * may not fit (50 variables of 4,000 characters), and the database's refusal answered 500.
     */
    static void checkStoredLength(String field, Object value, int max) {
        int length = RunnerJson.mapper().writeValueAsString(value).length();
        if (length > max) {
            throw InvalidInputException.of(field, "takes " + length + " characters as stored (as JSON); at most "
                    + max + " fit");
        }
    }

    private static ExperimentKind kind(String text) {
        if (text == null) {
            return ExperimentKind.ENGINE;
        }
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "engine" -> ExperimentKind.ENGINE;
            case "command" -> ExperimentKind.COMMAND;
            default -> throw InvalidInputException.of("kind", "unknown kind '" + PrintableText.Validator.quoted(text)
                    + "'; allowed: engine, "
                    + "command (uploads go to /api/v1/uploads)");
        };
    }

    static TrialOrder order(String text) {
        if (text == null) {
            return TrialOrder.INTERLEAVED;
        }
        try {
            return TrialOrder.parse(text);
        } catch (IllegalArgumentException e) {
            // TrialOrder's words name the CLI's flag
            throw InvalidInputException.of("order", "must be interleaved, randomized or blocked, got '"
                    + PrintableText.Validator.quoted(text) + "'");
        }
    }

    private Optional<String> metricsFormat(String format) {
        if (format == null || format.isBlank()) {
            return Optional.empty();
        }
        String name = format.strip().toLowerCase(Locale.ROOT);
        if (!metricsReader.formats().contains(name)) {
            throw InvalidInputException.of("metricsFormat", "unknown format '" + PrintableText.Validator.quoted(format)
                    + "'; allowed: "
                    + String.join(", ", metricsReader.formats()));
        }
        return Optional.of(name);
    }

    /** One side of a command experiment; {@code side} is {@code without} or {@code with}, as the fields start. */
    private static CommandVariant commandVariant(String side, String command, Optional<String> format,
                                                 String directory, Map<String, String> environment) {
        Optional<Path> dir = Optional.empty();
        if (directory != null && !directory.isBlank()) {
            String field = side + "Directory";
            try {
                dir = Optional.of(Path.of(directory.strip()));
            } catch (InvalidPathException e) {
                throw InvalidInputException.of(field, "not a path: " + e.getReason());
            }
            if (!dir.get().isAbsolute()) {
                throw InvalidInputException.of(field, "must be an absolute path on the server, got '"
                        + PrintableText.Validator.quoted(directory) + "'");
            }
            if (!Files.isDirectory(dir.get())) {
                throw InvalidInputException.of(field, "no directory '" + PrintableText.Validator.quoted(directory)
                        + "' on the server");
            }
        }
        try {
            new CommandVariant(command, format, Optional.empty(), Map.of());
        } catch (IllegalArgumentException e) {
            throw InvalidInputException.of(side + "Command", e.getMessage() + (format.isEmpty()
                    && command.contains(CommandVariant.OUTPUT_PLACEHOLDER) ? "; set 'metricsFormat'" : ""));
        }
        CommandVariant variant;
        try {
            variant = new CommandVariant(command, format, dir, environment);
        } catch (IllegalArgumentException e) {
            throw InvalidInputException.of(side + "Environment", e.getMessage());
        }
        checkStoredLength(side + "Environment", variant.environment(), MAX_STORED_ENVIRONMENT);
        return variant;
    }

    /** An engine experiment sets no field of a command experiment. */
    private static void refuseCommandSettings(ExperimentRequest request) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("withoutCommand", request.withoutCommand());
        fields.put("withCommand", request.withCommand());
        fields.put("metricsFormat", request.metricsFormat());
        fields.put("withoutDirectory", request.withoutDirectory());
        fields.put("withDirectory", request.withDirectory());
        fields.put("withoutEnvironment", request.withoutEnvironment());
        fields.put("withEnvironment", request.withEnvironment());
        fields.forEach((field, value) -> {
            if (value != null) {
                throw InvalidInputException.of(field, "applies to command experiments (\"kind\": \"command\"); an "
                        + "engine experiment runs PerfLab's engine");
            }
        });
    }

    /**
     * A command experiment sets no field of an engine experiment: it would never be read. A field sent empty (an
     * empty object or list) sets nothing and passes.
     */
    private static void refuseEngineSettings(ExperimentRequest request) {
        Map<String, Boolean> given = new LinkedHashMap<>();
        given.put("workload", request.workload() != null && !request.workload().equals(WorkloadSettings.NONE));
        given.put("without", request.without() != null && !request.without().isEmpty());
        given.put("with", request.with() != null && !request.with().isEmpty());
        given.put("withoutJvmArgs", request.withoutJvmArgs() != null && !request.withoutJvmArgs().isEmpty());
        given.put("withJvmArgs", request.withJvmArgs() != null && !request.withJvmArgs().isEmpty());
        given.forEach((field, set) -> {
            if (set) {
                throw InvalidInputException.of(field, "applies to engine experiments; a command experiment runs its "
                        + "commands as they are, so leave it out");
            }
        });
    }

    private static String required(String field, String value) {
        if (value == null || value.isBlank()) {
            throw InvalidInputException.of(field, "required and must not be blank");
        }
        return value.strip();
    }
}
