package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.agent.HostLabels;
import io.perflab.runner.experiment.CommandVariant;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.TrialOrder;
import io.perflab.rpc.EngineOptions;
import io.perflab.runner.rpcbench.Stack;
import io.perflab.runner.rpcbench.Warmup;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.rpcbench.WorkloadSettings;
import io.perflab.system.InvalidInputException;
import io.perflab.system.NotAllowedException;
import io.perflab.system.SettingException;
import io.perflab.upload.OutputMetricsReader;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExperimentValidatorTests {

    private final ExperimentValidator validator = new ExperimentValidator(new CommandExperimentsPolicy(false),
            JvmFlagPolicies.of(false));

    private static ExperimentRequest request(String preset, Map<String, String> without, Map<String, String> with,
            WorkloadSettings workload, Integer runs, String order) {
        return new ExperimentRequest("test", null, null, preset, without, with, workload, null, null, null, null,
                runs, order, null, null, null);
    }

    private static WorkloadSettings settings(Integer clientThreads, Integer responseBytes, Warmup warmup,
            BigDecimal runSeconds) {
        return new WorkloadSettings(null, null, clientThreads, null, null, null, null, null, responseBytes, warmup,
                runSeconds, null);
    }

    private static void assertBadRequest(ExperimentRequest request, ExperimentValidator validator,
            String... fragments) {
        assertThatThrownBy(() -> validator.validate(request, true))
                .isInstanceOfSatisfying(InvalidInputException.class, p -> assertThat(p.getMessage())
                        .contains(fragments));
    }

    @Test
    void presetFillsBothVariantsAndKeepsUserWorkload() {
        ExperimentSpec spec = validator.validate(request("sync-completion", null, null,
                settings(null, null, Warmup.parse("0.5"), BigDecimal.ONE), 3, null), false);

        EngineVariant without = (EngineVariant) spec.plan().without();
        EngineVariant with = (EngineVariant) spec.plan().with();
        assertThat(without.engineOptions().completion()).isEqualTo(EngineOptions.Completion.CONDVAR);
        assertThat(with.engineOptions().completion()).isEqualTo(EngineOptions.Completion.FUTEX);
        assertThat(with.workload().run().toMillis()).isEqualTo(1000);
        assertThat(spec.plan().runsPerVariant()).isEqualTo(3);
        assertThat(spec.plan().order()).isEqualTo(TrialOrder.INTERLEAVED);
        assertThat(spec.preset()).isEqualTo("sync-completion");
    }

    @Test
    void callBufferPresetMeasuresWithTwoKibResponses() {
        ExperimentSpec spec = validator.validate(request("call-buffer-4k", null, null, null, null, null), false);

        EngineVariant with = (EngineVariant) spec.plan().with();
        assertThat(with.workload().responseBytes()).isEqualTo(2048);
        assertThat(with.engineOptions().callBufferInitialBytes()).isEqualTo(4096);
        assertThat(spec.plan().design()).as("no design and no runsPerVariant").isEqualTo(
                io.perflab.runner.experiment.ExperimentDesign.ALTERNATING);
        assertThat(spec.plan().pairs()).isEqualTo(io.perflab.paired.PairedInput.DEFAULT_PAIRS);
    }

    @Test
    void explicitVariantsWithoutPreset() {
        ExperimentSpec spec = validator.validate(request(null, Map.of("allocator", "unpooled"),
                Map.of("allocator", "pooled"), null, 2, "randomized"), false);

        assertThat(spec.plan().order()).isEqualTo(TrialOrder.RANDOMIZED);
        assertThat(spec.kind()).isEqualTo(ExperimentKind.ENGINE);
    }

    @Test
    void rejectsUnknownPresetListingThePresets() {
        assertBadRequest(request("faster-please", null, null, null, null, null), validator, "preset",
                "faster-please", "sync-completion", "recycled-call-objects");
    }

    @Test
    void rejectsUnknownOptionNameListingTheOptions() {
        assertBadRequest(request(null, Map.of("turbo", "on"), Map.of("completion", "monitor"), null, null, null),
                validator, "without", "turbo", "completion", "allocator");
    }

    @Test
    void rejectsUnknownOptionValueListingTheValues() {
        assertBadRequest(request(null, Map.of("completion", "spin"), Map.of("completion", "monitor"), null, null, null),
                validator, "without", "spin", "notification");
    }

    @Test
    void rejectsIdenticalVariants() {
        assertBadRequest(request(null, Map.of("completion", "monitor"), Map.of("completion", "monitor"), null, null,
                null), validator, "identical");
        assertBadRequest(request("sync-completion", Map.of("completion", "futex"), null, null, null, null),
                validator, "identical");
    }

    @Test
    void rejectsMissingVariants() {
        assertBadRequest(request(null, Map.of("completion", "monitor"), null, null, null, null), validator,
                "with: give both variants", "preset");
    }

    @Test
    void settingsThatNoTrialCanRunWithNameTheirWorkloadField() {
        assertBadRequest(request("sync-completion", null, null, new WorkloadSettings(Stack.GRPC, null, null, null,
                null, null, null, null, null, null, null, null), null, null), validator, "workload.stack");
        assertBadRequest(request("sync-completion", null, null, new WorkloadSettings(null, null, 0, null, null, null,
                null, null, null, null, null, null), null, null), validator,
                "workload.clientThreads: must be ≥ 1, got 0");
    }

    @Test
    void rejectsUnknownOrderAndBlankName() {
        assertBadRequest(request("sync-completion", null, null, null, null, "sideways"), validator, "order",
                "interleaved");
        assertBadRequest(new ExperimentRequest(" ", null, null, "sync-completion", null, null, null, null, null, null,
                null, null, null, null, null, null), validator, "name");
    }

    @Test
    void commandExperimentsAreForbiddenUnlessEnabledAndAdmin() {
        ExperimentRequest command = new ExperimentRequest("cmd", null, "command", null, null, null, null, null, null,
                "sleep 0.1", "sleep 0.2", 2, null, null, null, null);

        assertThatThrownBy(() -> validator.validate(command, true)).isInstanceOf(NotAllowedException.class)
                .hasMessageContaining("perflab.commands.enabled");
        ExperimentValidator enabled = new ExperimentValidator(new CommandExperimentsPolicy(true),
                JvmFlagPolicies.of(false));
        assertThatThrownBy(() -> enabled.validate(command, false)).isInstanceOf(NotAllowedException.class)
                .hasMessageContaining("administrator");
        assertThat(enabled.validate(command, true).kind()).isEqualTo(ExperimentKind.COMMAND);
    }

    @Test
    void rejectsJvmArgsThatAreNotFlags() {
        assertBadRequest(new ExperimentRequest("t", null, null, "sync-completion", null, null, null,
                List.of("Xmx1g"), null, null, null, null, null, null, null, null), validator, "withoutJvmArgs");
    }

    /**
     * Twenty allowed flags of 200 characters each pass their own checks, but their JSON does not fit the 4,000
     * characters of their column: the insert failed with a 500 naming no field.
     */
    @Test
    void jvmFlagsThatDoNotFitTheirColumnAreRefusedNamingTheField() {
        List<String> flags = java.util.stream.IntStream.range(0, 20)
                .mapToObj(i -> String.format("-Dio.netty.p%02d%s=%s", i, "x".repeat(85), "y".repeat(100))).toList();
        assertThat(flags).allSatisfy(flag -> assertThat(flag).hasSize(200));

        for (String field : List.of("withoutJvmArgs", "withJvmArgs")) {
            ExperimentRequest request = new ExperimentRequest("t", null, null, "sync-completion", null, null, null,
                    field.equals("withoutJvmArgs") ? flags : null, field.equals("withJvmArgs") ? flags : null, null,
                    null, null, null, null, null, null);
            assertBadRequest(request, validator, field + ": takes 4061 characters as stored (as JSON); at most "
                    + "4000 fit");
        }
        ExperimentRequest fits = new ExperimentRequest("t", null, null, "sync-completion", null, null, null, null,
                flags.subList(0, 19), null, null, null, null, null, null, null);
        assertThat(((EngineVariant) validator.validate(fits, false).plan().with()).jvmArgs()).hasSize(19);
    }

    /**
     * A command experiment runs commands, not the engine: its engine fields were accepted and never read. Each is
     * refused by name; left out, or sent empty, they are not.
     */
    @Test
    void aCommandExperimentRefusesEachEngineFieldByName() {
        ExperimentValidator enabled = new ExperimentValidator(new CommandExperimentsPolicy(true),
                JvmFlagPolicies.of(false));
        WorkloadSettings shortRun = settings(null, null, null, BigDecimal.valueOf(5));
        Map<String, ExperimentRequest> requests = new java.util.LinkedHashMap<>();
        requests.put("workload", commandRequest(null, null, shortRun, null, null));
        requests.put("without", commandRequest(Map.of("completion", "monitor"), null, null, null, null));
        requests.put("with", commandRequest(null, Map.of("completion", "monitor"), null, null, null));
        requests.put("withoutJvmArgs", commandRequest(null, null, null, List.of("-Xmx1g"), null));
        requests.put("withJvmArgs", commandRequest(null, null, null, null, List.of("-Xmx1g")));

        requests.forEach((field, request) -> assertBadRequest(request, enabled, field + ": applies to engine "
                + "experiments; a command experiment runs its commands"));
        assertThat(enabled.validate(commandRequest(Map.of(), Map.of(), WorkloadSettings.NONE, List.of(), List.of()),
                true).kind()).isEqualTo(ExperimentKind.COMMAND);
    }

    private static ExperimentRequest commandRequest(Map<String, String> without, Map<String, String> with,
                                                    WorkloadSettings workload, List<String> withoutJvmArgs,
                                                    List<String> withJvmArgs) {
        return new ExperimentRequest("cmd", null, "command", null, without, with, workload, withoutJvmArgs,
                withJvmArgs, "sleep 0.1", "sleep 0.2", 2, null, null, null, null);
    }

    @Test
    void rawJvmFlagsNeedTheSettingAndAnAdministrator() {
        ExperimentRequest onError = new ExperimentRequest("t", null, null, "sync-completion", null, null, null,
                null, List.of("-XX:OnError=id"), null, null, null, null, null, null, null);
        assertBadRequest(onError, validator, "withJvmArgs: the JVM flag '-XX:OnError=id' is not allowed",
                "perflab.trials.raw-jvm-flags");
        ExperimentValidator raw = new ExperimentValidator(new CommandExperimentsPolicy(false),
                JvmFlagPolicies.of(true));
        assertThatThrownBy(() -> raw.validate(onError, false)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("is not allowed");
        assertThat(((EngineVariant) raw.validate(onError, true).plan().with()).jvmArgs())
                .containsExactly("-XX:OnError=id");
    }

    /** A flag an administrator may give while raw flags are on, but that is none, was quoted as it came. */
    @Test
    void anEntryThatIsNoFlagIsQuotedWithItsHiddenCharactersEscaped() {
        ExperimentRequest hidden = new ExperimentRequest("t", null, null, "sync-completion", null, null, null,
                null, List.of("x\u001B[2J\u202Ey"), null, null, null, null, null, null, null);
        ExperimentValidator raw = new ExperimentValidator(new CommandExperimentsPolicy(false),
                JvmFlagPolicies.of(true));

        assertThatThrownBy(() -> raw.validate(hidden, true)).isInstanceOfSatisfying(InvalidInputException.class,
                p -> assertThat(p.getMessage())
                        .contains("withJvmArgs: every entry must be a JVM flag starting with '-', got "
                                + "'x\\u001B[2J\\u202Ey'")
                        .doesNotContain("\u001B", "\u202E"));
    }

    @Test
    void aStoredPlanWithARefusedFlagDoesNotRunWhileRawFlagsAreOff() {
        ExperimentRequest onError = new ExperimentRequest("t", null, null, "sync-completion", null, null, null,
                null, List.of("-javaagent:/tmp/x.jar"), null, null, null, null, null, null, null);
        ExperimentValidator raw = new ExperimentValidator(new CommandExperimentsPolicy(false),
                JvmFlagPolicies.of(true));
        var plan = raw.validate(onError, true).plan();

        assertThat(JvmFlagPolicies.of(false).refusal(plan)).hasValueSatisfying(reason ->
                assertThat(reason).contains("'-javaagent:/tmp/x.jar' is not allowed"));
        assertThat(JvmFlagPolicies.of(true).refusal(plan)).isEmpty();
        assertThat(JvmFlagPolicies.of(false).refusal(validator.validate(request("sync-completion", null, null, null,
                3, null), false).plan())).isEmpty();
    }

    @Test
    void flagsThatAskMoreOfTheHostThanItsBoundAreRefusedUnlessRawFlagsAreOnForAnAdministrator() {
        ExperimentRequest bigHeap = new ExperimentRequest("t", null, null, "sync-completion", null, null, null,
                List.of("-Xms5g", "-XX:+AlwaysPreTouch"), null, null, null, null, null, null, null, null);
        // the tests' policy bounds a 16 GiB host: 4 GiB per trial JVM
        assertThatThrownBy(() -> validator.validate(bigHeap, true)).isInstanceOfSatisfying(InvalidInputException.class,
                p -> assertThat(p.getMessage()).contains("withoutJvmArgs: the JVM flag '-Xms5g' asks for 5 GiB",
                        "at most 4 GiB"));
        ExperimentValidator raw = new ExperimentValidator(new CommandExperimentsPolicy(false),
                JvmFlagPolicies.of(true));
        assertThatThrownBy(() -> raw.validate(bigHeap, false)).isInstanceOf(InvalidInputException.class);
        assertThat(((EngineVariant) raw.validate(bigHeap, true).plan().without()).jvmArgs()).contains("-Xms5g");

        JvmFlagPolicy operators = new JvmFlagPolicy(false, List.of(), JvmFlagPolicy.bounds(16L << 30, 8L << 30), true);
        ExperimentValidator larger = new ExperimentValidator(new CommandExperimentsPolicy(false), operators);
        var plan = larger.validate(bigHeap, false).plan();
        assertThat(operators.refusal(plan)).isEmpty();
        assertThat(JvmFlagPolicies.of(false).refusal(plan)).hasValueSatisfying(reason -> assertThat(reason)
                .contains("'-Xms5g' asks for 5 GiB").endsWith("; no trial was started"));
        assertThat(JvmFlagPolicy.bounds(16L << 30, null)).isEqualTo(JvmFlagPolicies.HOST_16_GIB);
        assertThat(JvmFlagPolicy.hostMemoryBytes()).isPositive();
    }

    private static ExperimentRequest withFlags(String... flags) {
        return new ExperimentRequest("t", null, null, "sync-completion", null, null, null, null, List.of(flags), null,
                null, null, null, null, null, null);
    }

    private static ExperimentRequest withFlags(Map<String, String> hostLabels, String... flags) {
        return new ExperimentRequest("t", null, null, "sync-completion", null, null, null, null, List.of(flags), null,
                null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                hostLabels);
    }

    /**
     * A trial JVM starts with the service's fixed flags, then a variant's; the bound ignored the fixed ones: with a
     * fixed {@code -Xmx6g} and a bound of 6 GiB, {@code -XX:MaxDirectMemorySize=5g} was taken, and the JVM got both.
     * They are counted together as the JVM takes them: a request's {@code -Xmx} replaces the fixed one, other sizes
     * add to it. The refusal names the fixed flags that size memory, and no other (an operator's -D may be secret).
     */
    @Test
    void aRequestsFlagsAreCountedWithTheServicesFixedFlagsAsTheJvmTakesThem() {
        JvmFlagPolicy sixGib = new JvmFlagPolicy(false, List.of("-Xmx6g", "-XX:+UseSerialGC",
                "-Dcompany.secret=hunter2"), JvmFlagPolicy.bounds(64L << 30, 6L << 30), true);
        ExperimentValidator fixedHeap = new ExperimentValidator(new CommandExperimentsPolicy(false), sixGib);

        assertThatThrownBy(() -> fixedHeap.validate(withFlags("-XX:MaxDirectMemorySize=5g"), false))
                .isInstanceOfSatisfying(InvalidInputException.class, p -> assertThat(p.getMessage())
                        .contains("withJvmArgs: the JVM flags '-Xmx6g' (fixed), '-XX:MaxDirectMemorySize=5g' ask for "
                                + "11 GiB of memory", "at most 6 GiB together on this server", "the fixed flags "
                                + "every trial JVM starts with on this server (perflab.trials.jvm-args) are counted "
                                + "too: -Xmx6g (a flag given again replaces its fixed one")
                        .doesNotContain("hunter2"));
        var plan = fixedHeap.validate(withFlags("-Xmx1g", "-XX:MaxDirectMemorySize=5g"), false).plan();
        assertThat(sixGib.refusal(plan)).isEmpty();
        fixedHeap.validate(withFlags("-XX:MaxHeapSize=1g", "-XX:MaxDirectMemorySize=5g"), false);

        // a plan stored before is refused when this service's built-in agent would start it
        var stored = new ExperimentValidator(new CommandExperimentsPolicy(false), new JvmFlagPolicy(false, List.of(),
                JvmFlagPolicy.bounds(64L << 30, 6L << 30), true))
                .validate(withFlags("-XX:MaxDirectMemorySize=5g"), false).plan();
        assertThat(sixGib.refusal(stored)).hasValueSatisfying(reason -> assertThat(reason)
                .contains("'-Xmx6g' (fixed)", "11 GiB", "perflab.trials.jvm-args").endsWith("; no trial was started"));

        // where the operator set none, the defaults are the fixed flags, and count: 512 MiB of heap + 4 GiB
        assertBadRequest(withFlags("-XX:MaxDirectMemorySize=4g"), validator, "'-Xms512m' (fixed)",
                "'-XX:MaxDirectMemorySize=4g' ask for 4.5 GiB", "on this server (the defaults, which "
                        + "perflab.trials.jvm-args replaces) are counted too: -Xms512m -Xmx512m");
        // a service that runs no trial itself (perflab.agents.built-in=false) puts its fixed flags on no JVM
        JvmFlagPolicy noTrials = new JvmFlagPolicy(false, List.of("-Xmx6g"), JvmFlagPolicy.bounds(64L << 30,
                6L << 30), true, false, HostLabels.NONE);
        new ExperimentValidator(new CommandExperimentsPolicy(false), noTrials)
                .validate(withFlags("-XX:MaxDirectMemorySize=5g"), false);
    }

    /**
     * An experiment that asks for host labels this service's built-in agent lacks runs only on agents, which start
     * their trial JVMs with fixed flags of their own (counted at their claim): this service's fixed flags were
     * counted with its flags all the same, and refused what an agent would have run.
     */
    @Test
    void theServicesFixedFlagsCountOnlyForExperimentsItsBuiltInAgentCouldClaim() {
        JvmFlagPolicy sixGib = new JvmFlagPolicy(false, List.of("-Xmx6g"), JvmFlagPolicy.bounds(64L << 30, 6L << 30),
                true, true, HostLabels.parse("arch=x86_64"));
        ExperimentValidator fixedHeap = new ExperimentValidator(new CommandExperimentsPolicy(false), sixGib);
        ExperimentRequest elsewhere = withFlags(Map.of("arch", "arm64"), "-XX:MaxDirectMemorySize=5g");

        var plan = fixedHeap.validate(elsewhere, false).plan();
        fixedHeap.checkRerun(ExperimentKind.ENGINE, plan, HostLabels.parse("arch=arm64"), false);
        // what the built-in agent could claim still counts them, labels or none
        for (Map<String, String> here : List.of(Map.<String, String>of(), Map.of("arch", "x86_64"))) {
            assertThatThrownBy(() -> fixedHeap.validate(withFlags(here, "-XX:MaxDirectMemorySize=5g"),
                    false)).isInstanceOfSatisfying(InvalidInputException.class,
                            p -> assertThat(p.getMessage()).contains("'-Xmx6g' (fixed)", "11 GiB"));
            assertThatThrownBy(() -> fixedHeap.checkRerun(ExperimentKind.ENGINE, plan, HostLabels.of(here), false))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("'-Xmx6g' (fixed)");
        }
        // the service's bound holds for the request's flags by themselves wherever it runs
        assertThatThrownBy(() -> fixedHeap.validate(withFlags(Map.of("arch", "arm64"),
                "-XX:MaxDirectMemorySize=7g"), false)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("7 GiB");
    }

    /**
     * Fixed flags that by themselves take more than a trial JVM may would leave every experiment refused: the service
     * does not start with them, and says which settings to change. One that runs no trial itself starts.
     */
    @Test
    void fixedFlagsThatAloneTakeMoreThanTheBoundStopTheServiceFromStarting() {
        assertThatThrownBy(() -> new JvmFlagPolicy(false, List.of("-Xms8g", "-Xmx8g", "-XX:+UseSerialGC"),
                JvmFlagPolicies.HOST_16_GIB, false))
                .isInstanceOf(SettingException.class)
                .hasMessage("perflab.trials.jvm-args: the fixed flags every trial JVM starts with take 8 GiB of memory "
                        + "by themselves (-Xms8g -Xmx8g), more than a trial JVM may take on this server "
                        + "(perflab.trials.max-jvm-memory; by default a quarter of the host's 16 GiB): 4 GiB. Every "
                        + "experiment's flags are counted with them, so none could run here: give smaller sizes in "
                        + "perflab.trials.jvm-args, a larger perflab.trials.max-jvm-memory, or "
                        + "perflab.agents.built-in=false if agents run the trials");
        assertThatThrownBy(() -> new JvmFlagPolicy(false, List.of(), JvmFlagPolicy.bounds(16L << 30, 256L << 20),
                true)).isInstanceOf(SettingException.class).hasMessageContaining("perflab.trials.jvm-args: the fixed "
                + "flags every trial JVM starts with (the defaults, which perflab.trials.jvm-args replaces) take 512 "
                + "MiB of memory by themselves (-Xms512m -Xmx512m)");
        assertThat(new JvmFlagPolicy(false, List.of("-Xmx8g"), JvmFlagPolicies.HOST_16_GIB, false, false,
                HostLabels.NONE).bounds())
                .isEqualTo(JvmFlagPolicies.HOST_16_GIB);
        assertThat(new JvmFlagPolicy(false, List.of("-Xmx4g"), JvmFlagPolicies.HOST_16_GIB, false).bounds())
                .as("exactly the bound is within it").isEqualTo(JvmFlagPolicies.HOST_16_GIB);
    }

    @Test
    void theSameCommandInTwoDirectoriesIsACommandExperimentThatReadsItsOutput(@TempDir Path directory)
            throws IOException {
        Path old = Files.createDirectory(directory.resolve("build-old"));
        Path changed = Files.createDirectory(directory.resolve("build-new"));
        ExperimentValidator enabled = new ExperimentValidator(new CommandExperimentsPolicy(true),
                JvmFlagPolicies.of(false), new OutputMetricsReader());
        ExperimentRequest request = new ExperimentRequest("kudu", null, "command", null, null, null, null, null,
                null, "./bin/rpc-bench", "./bin/rpc-bench", 40, null, null, null, null, " RPCBench ", old.toString(),
                changed.toString(), Map.of("GLOG_v", "1"), null);

        CommandVariant with = (CommandVariant) enabled.validate(request, true).plan().with();

        assertThat(with.metricsFormat()).contains("rpcbench");
        assertThat(with.directory()).contains(changed);
        assertThat(((CommandVariant) enabled.validate(request, true).plan().without()).environment())
                .containsEntry("GLOG_v", "1");
        assertThat(enabled.commandFormats(true)).hasValueSatisfying(f -> assertThat(f).contains("jmh"));
        assertThat(enabled.commandFormats(false)).isEmpty();
        assertThat(validator.commandFormats(true)).isEmpty();
        ExperimentRequest same = new ExperimentRequest("kudu", null, "command", null, null, null, null, null,
                null, "./bin/rpc-bench", "./bin/rpc-bench", 40, null, null, null, null, null, old.toString(),
                old.toString(), null, null);
        assertBadRequest(same, enabled, "withCommand: the two commands are identical, run in the same directory");
    }

    @Test
    void aRerunIsCheckedAsANewRequestOfItsCaller() {
        EngineVariant plain = new EngineVariant(EngineOptions.defaults(), Workload.DEFAULTS, List.of(),
                java.util.Optional.empty());
        EngineVariant agent = new EngineVariant(EngineOptions.defaults().withOption("allocator", "unpooled"),
                Workload.DEFAULTS, List.of("-javaagent:/tmp/a.jar"), java.util.Optional.empty());
        ExperimentPlan plan = ExperimentPlan.of(plain, agent, 3);
        ExperimentValidator rawForAdmins = new ExperimentValidator(new CommandExperimentsPolicy(true),
                JvmFlagPolicies.of(true));

        rawForAdmins.checkRerun(ExperimentKind.ENGINE, plan, HostLabels.NONE, true);
        assertThatThrownBy(() -> rawForAdmins.checkRerun(ExperimentKind.ENGINE, plan, HostLabels.NONE, false))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.getMessage())
                        .contains("withJvmArgs", "-javaagent:/tmp/a.jar"));
        assertThatThrownBy(() -> validator.checkRerun(ExperimentKind.ENGINE, plan, HostLabels.NONE, true))
                .as("raw flags no longer allowed on this server").isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> rawForAdmins.checkRerun(ExperimentKind.COMMAND, plan, HostLabels.NONE, false))
                .isInstanceOfSatisfying(NotAllowedException.class, e -> assertThat(e.getMessage())
                        .contains("need an administrator"));
        assertThatThrownBy(() -> validator.checkRerun(ExperimentKind.COMMAND, plan, HostLabels.NONE, true))
                .isInstanceOfSatisfying(NotAllowedException.class, e -> assertThat(e.getMessage())
                        .contains("disabled on this server"));
    }
}
