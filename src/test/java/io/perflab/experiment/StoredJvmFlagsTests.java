package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.agent.AgentHost;
import io.perflab.agent.AgentProtocol.Assignment;
import io.perflab.agent.AgentProtocol.Registration;
import io.perflab.agent.HostLabels;
import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.MetricsReader;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.system.ConflictException;
import io.perflab.system.InvalidInputException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jdbc.test.autoconfigure.DataJdbcTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.context.annotation.Import;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * JVM flags beyond the allow-list that an administrator stored while {@code perflab.trials.raw-jvm-flags} was on:
 * they run again only as a new request of the same caller could, whether the experiment is re-run or resumed, and
 * on a remote agent only while the server still allows them, as on its built-in agent. The service and the
 * coordinator are built by hand over the real schema; no trial runs.
 */
@DataJdbcTest(properties = "spring.datasource.url=jdbc:h2:mem:stored-jvm-flags-tests;DB_CLOSE_DELAY=-1")
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@Import({ExperimentRepository.class, SequentialLookRepository.class, AgentRepository.class,
        ResultsDigestRepository.class, ExperimentRepositoryTests.Json.class})
@Transactional(propagation = Propagation.NOT_SUPPORTED)
class StoredJvmFlagsTests {

    private static final String ON_OOM = "-XX:OnOutOfMemoryError=touch /tmp/perflab-resumed";
    private static final AgentCoordinator.Caller AGENT = new AgentCoordinator.Caller("bench", false);

    @Autowired
    ExperimentRepository store;

    @Autowired
    SequentialLookRepository looks;

    @Autowired
    AgentRepository agents;

    @Autowired
    ResultsDigestRepository digests;

    @Autowired
    PlatformTransactionManager transactions;

    @Autowired
    org.springframework.jdbc.core.simple.JdbcClient jdbc;

    /** A user who started the experiments here, and an administrator. */
    private static final ExperimentCaller USER = new ExperimentCaller("user", false);
    private static final ExperimentCaller ADMIN = new ExperimentCaller("admin", true);

    private long stored(String name, List<String> withFlags, HostLabels labels, ExperimentStatus status) {
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(EngineOptions.defaults(), Workload.DEFAULTS),
                EngineVariant.of(EngineOptions.defaults(), Workload.DEFAULTS).withJvmArgs(withFlags), 2);
        return StoredExperiments.insert(store, new ExperimentSpec(name, null, ExperimentKind.ENGINE, null, plan,
                PairedStopping.NONE, labels), status, "user", Instant.now());
    }

    private ExperimentService service(JvmFlagPolicy jvmFlags) {
        ExperimentScheduler scheduler = new ExperimentScheduler(store, looks, new ExperimentEvents(),
                Clock.systemUTC(), jvmFlags, MetricsReader.NONE, transactions,
                new TrialLauncher(List.of("-cp", "none", "None")), (runner, plan, pairs, earlier, listener, rule) -> {
                    throw new AssertionError("no pair runs here");
                });
        return new ExperimentService(store, scheduler, new ExperimentResults(store, digests),
                new ExperimentValidator(new CommandExperimentsPolicy(false), jvmFlags), looks, agents,
                AgentProperties.defaults(), Clock.systemUTC());
    }

    private AgentCoordinator coordinator(JvmFlagPolicy jvmFlags) {
        return new AgentCoordinator(store, agents, looks, new ExperimentEvents(), Clock.systemUTC(),
                new AgentProperties(Duration.ofHours(1), Duration.ofHours(2), Duration.ZERO, false, null, ""),
                transactions, new CommandExperimentsPolicy(false), jvmFlags,
                new io.perflab.security.ApiTokens(jdbc, Clock.systemUTC()),
                MetricsReader.NONE);
    }

    private ExperimentStatus status(long id) {
        return store.find(id).orElseThrow().status();
    }

    /** A user's resume queued the administrator's flags again, which a re-run by the same user refuses. */
    @Test
    void aResumeRunsFlagsBeyondTheAllowListAgainOnlyForAnAdministrator() {
        ExperimentService service = service(JvmFlagPolicies.of(true));
        long id = stored("raw flags, cancelled", List.of("-Xbatch", ON_OOM), HostLabels.parse("pool=resume"),
                ExperimentStatus.CANCELLED);

        assertThatThrownBy(() -> service.resume(id, USER))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.getMessage())
                        .contains("withJvmArgs", ON_OOM, "is not allowed"));
        assertThat(status(id)).isEqualTo(ExperimentStatus.CANCELLED);
        assertThatThrownBy(() -> service.rerun(id, USER)).isInstanceOf(InvalidInputException.class);

        service.resume(id, ADMIN);
        assertThat(status(id)).isEqualTo(ExperimentStatus.QUEUED);
        long plain = stored("allowed flags, cancelled", List.of("-Xbatch"), HostLabels.parse("pool=resume"),
                ExperimentStatus.CANCELLED);
        service.resume(plain, USER);
        assertThat(status(plain)).isEqualTo(ExperimentStatus.QUEUED);
    }

    /**
     * Only the built-in agent refused a plan whose flags the server no longer allows; a remote agent was handed them.
     * Now the claim fails it with the reason, as the built-in agent does, and the agent gets the next experiment.
     */
    @Test
    void aRemoteAgentIsNotHandedFlagsThisServerNoLongerAllows() {
        HostLabels pool = HostLabels.parse("pool=remote-flags");
        long raw = stored("queued while raw flags were allowed", List.of(ON_OOM), pool, ExperimentStatus.QUEUED);
        long plain = stored("allowed flags", List.of("-Xbatch"), pool, ExperimentStatus.QUEUED);
        AgentCoordinator coordinator = coordinator(JvmFlagPolicies.of(false));
        long agent = coordinator.register(new Registration("bench", pool.labels(), Map.of("host", "bench"), false,
                null, null), AGENT).agentId();

        Assignment assignment = coordinator.poll(agent, AGENT, Duration.ZERO).orElseThrow();

        assertThat(assignment.experimentId()).isEqualTo(plain);
        ExperimentRecord refused = store.find(raw).orElseThrow();
        assertThat(refused.status()).isEqualTo(ExperimentStatus.FAILED);
        assertThat(refused.error()).contains("the JVM flag '" + ON_OOM + "' is not allowed on this server",
                "perflab.trials.raw-jvm-flags is off", "no trial was started");
        assertThat(store.runningOn(agent)).containsExactly(plain);

        long allowedNow = stored("queued while raw flags are allowed", List.of(ON_OOM), pool,
                ExperimentStatus.QUEUED);
        AgentCoordinator rawAllowed = coordinator(JvmFlagPolicies.of(true));
        long other = rawAllowed.register(new Registration("other bench", pool.labels(), Map.of("host", "other"),
                false, null, null), AGENT).agentId();
        assertThat(rawAllowed.poll(other, AGENT, Duration.ZERO)).map(Assignment::experimentId).contains(allowedNow);
    }

    /**
     * The service holds a request's flags to a quarter of its own host; an agent's host may be smaller. A claim by
     * an agent whose registered memory is smaller fails a plan that asks more than a quarter of it, naming the agent;
     * a larger agent of the same labels runs it, and the operator's own bound holds for every host instead.
     */
    @Test
    void aClaimFailsFlagsThatAskMoreThanAQuarterOfTheClaimingAgentsHost() {
        HostLabels pool = HostLabels.parse("pool=small-hosts");
        long big = stored("a heap of 2 GiB", List.of("-Xmx2g"), pool, ExperimentStatus.QUEUED);
        long small = stored("a heap of 512 MiB", List.of("-Xmx512m"), pool, ExperimentStatus.QUEUED);
        AgentCoordinator coordinator = coordinator(JvmFlagPolicies.of(false));
        long smallHost = coordinator.register(new Registration("small bench", pool.labels(),
                Map.of("host", "small", AgentHost.MEMORY, Long.toString(4L << 30)),
                false, null, null), AGENT).agentId();

        Assignment assignment = coordinator.poll(smallHost, AGENT, Duration.ZERO).orElseThrow();

        assertThat(assignment.experimentId()).isEqualTo(small);
        ExperimentRecord refused = store.find(big).orElseThrow();
        assertThat(refused.status()).isEqualTo(ExperimentStatus.FAILED);
        assertThat(refused.error()).isEqualTo("PerfLab could not run this experiment: the JVM flag '-Xmx2g' asks for "
                + "2 GiB of memory; a trial JVM's heap, direct memory, code cache and metaspace may take at most 1 GiB "
                + "together on the host of agent 'small bench', which runs its trials (a quarter of its 4 GiB); no "
                + "trial was started");

        long again = stored("a heap of 2 GiB again", List.of("-Xmx2g"), pool, ExperimentStatus.QUEUED);
        long largeHost = coordinator.register(new Registration("large bench", pool.labels(),
                Map.of("host", "large", AgentHost.MEMORY, Long.toString(16L << 30)),
                false, null, null), AGENT).agentId();
        assertThat(coordinator.poll(largeHost, AGENT, Duration.ZERO)).map(Assignment::experimentId).contains(again);

        // the operator's perflab.trials.max-jvm-memory is the bound of every host; an agent without memory has none
        long operators = stored("a heap of 2 GiB, the operator's bound", List.of("-Xmx2g"), pool,
                ExperimentStatus.QUEUED);
        AgentCoordinator bounded = coordinator(new JvmFlagPolicy(false, List.of(), JvmFlagPolicies.HOST_16_GIB, true));
        long other = bounded.register(new Registration("small bench 2", pool.labels(),
                Map.of("host", "small2", AgentHost.MEMORY, Long.toString(4L << 30)),
                false, null, null), AGENT).agentId();
        assertThat(bounded.poll(other, AGENT, Duration.ZERO)).map(Assignment::experimentId).contains(operators);
        long unknown = stored("a heap of 2 GiB, an agent of an earlier version", List.of("-Xmx2g"), pool,
                ExperimentStatus.QUEUED);
        long older = coordinator.register(new Registration("older bench", pool.labels(), Map.of("host", "older"),
                false, null, null), AGENT).agentId();
        assertThat(coordinator.poll(older, AGENT, Duration.ZERO)).map(Assignment::experimentId).contains(unknown);
    }

    private long register(AgentCoordinator coordinator, String name, HostLabels pool, Long memory,
                          String fixedFlags) {
        Map<String, String> environment = new java.util.LinkedHashMap<>(Map.of("host", name));
        if (memory != null) {
            environment.put(AgentHost.MEMORY, Long.toString(memory));
        }
        if (fixedFlags != null) {
            environment.put(AgentHost.TRIAL_MEMORY_FLAGS, fixedFlags);
        }
        return coordinator.register(new Registration(name, pool.labels(), environment, false, null, null), AGENT)
                .agentId();
    }

    /**
     * An agent starts every trial JVM with fixed flags of its own ({@code perflab agent --jvm-args}, or its
     * defaults), which it registers; the claim held the plan's flags to its host without them. With a fixed
     * {@code -Xmx3g} on a host whose trial JVMs may take 4 GiB, a plan's {@code -XX:MaxDirectMemorySize=2g} gave the
     * JVM 5 GiB. The claim counts them together, as the JVM takes them (a plan's -Xmx replaces the fixed one), against
     * a quarter of the agent's host or the operator's bound; the service's own fixed flags, which no agent uses, are
     * not counted there.
     */
    @Test
    void aClaimCountsTheClaimingAgentsFixedFlagsWithThePlans() {
        HostLabels pool = HostLabels.parse("pool=agent-fixed-flags");
        long direct = stored("direct memory of 2 GiB", List.of("-XX:MaxDirectMemorySize=2g"), pool,
                ExperimentStatus.QUEUED);
        long ownHeap = stored("its own heap and direct memory", List.of("-Xmx1g", "-XX:MaxDirectMemorySize=2g"), pool,
                ExperimentStatus.QUEUED);
        AgentCoordinator coordinator = coordinator(JvmFlagPolicies.of(false));
        long agent = register(coordinator, "fixed bench", pool, 16L << 30, "-Xmx3g");

        assertThat(coordinator.poll(agent, AGENT, Duration.ZERO)).map(Assignment::experimentId).contains(ownHeap);
        ExperimentRecord refused = store.find(direct).orElseThrow();
        assertThat(refused.status()).isEqualTo(ExperimentStatus.FAILED);
        assertThat(refused.error()).isEqualTo("PerfLab could not run this experiment: the JVM flags '-Xmx3g' (fixed), "
                + "'-XX:MaxDirectMemorySize=2g' ask for 5 GiB of memory; a trial JVM's heap, direct memory, code cache "
                + "and metaspace may take at most 4 GiB together on the host of agent 'fixed bench', which runs its "
                + "trials (a quarter of its 16 GiB); the fixed flags every trial JVM starts with on agent "
                + "'fixed bench' (perflab agent --jvm-args, or its defaults) are counted too: -Xmx3g (a flag given "
                + "again replaces its fixed one, as -Xmx does; other sizes add to them); no trial was started");

        // the service's fixed flags start no JVM of an agent's: one that registered none of its own runs the plan
        long again = stored("direct memory of 2 GiB again", List.of("-XX:MaxDirectMemorySize=2g"), pool,
                ExperimentStatus.QUEUED);
        AgentCoordinator serviceHeap = coordinator(new JvmFlagPolicy(false, List.of("-Xmx3g"),
                JvmFlagPolicies.HOST_16_GIB, false));
        long plain = register(serviceHeap, "plain bench", pool, 16L << 30, "");
        assertThat(serviceHeap.poll(plain, AGENT, Duration.ZERO)).map(Assignment::experimentId).contains(again);

        // the operator's bound holds on every host, with the agent's fixed flags
        long operators = stored("direct memory of 2 GiB, the operator's bound", List.of("-XX:MaxDirectMemorySize=2g"),
                pool, ExperimentStatus.QUEUED);
        AgentCoordinator bounded = coordinator(new JvmFlagPolicy(false, List.of(), JvmFlagPolicy.bounds(16L << 30,
                4L << 30), true));
        long unsized = register(bounded, "unsized bench", pool, null, "-Xms3g -Xmx3g");
        assertThat(bounded.poll(unsized, AGENT, Duration.ZERO)).isEmpty();
        assertThat(store.find(operators).orElseThrow().error()).contains("the JVM flags '-Xms3g' (fixed), "
                + "'-XX:MaxDirectMemorySize=2g' ask for 5 GiB", "at most 4 GiB together on this server "
                + "(perflab.trials.max-jvm-memory", "counted too: -Xms3g -Xmx3g");
    }

    /**
     * An agent whose fixed flags alone take more than a trial JVM may on its host could run no engine experiment: each
     * claim would fail one. Its registration is refused, naming its flags and what to change, and so is a poll of one
     * registered under a larger bound (the operator's, before a restart), so that no experiment fails for it.
     */
    @Test
    void anAgentWhoseFixedFlagsAloneTakeMoreThanItsHostGivesIsRefusedNotHandedExperiments() {
        HostLabels pool = HostLabels.parse("pool=too-large-fixed-flags");
        AgentCoordinator coordinator = coordinator(JvmFlagPolicies.of(false));
        assertThatThrownBy(() -> register(coordinator, "large heap", pool, 16L << 30, "-Xms5g -Xmx5g"))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.getMessage()).isEqualTo(
                        "environment.trial_memory_flags: the fixed flags agent 'large heap' starts every trial JVM "
                                + "with (perflab agent --jvm-args, or its defaults) take 5 GiB of memory by themselves "
                                + "(-Xms5g -Xmx5g), more than a trial JVM may take on the host of agent 'large heap', "
                                + "which runs its trials (a quarter of its 16 GiB): 4 GiB. Every experiment's flags "
                                + "are counted with them, so it could run none: start it with smaller sizes in "
                                + "--jvm-args"));
        assertThatThrownBy(() -> register(coordinator, "collector", pool, 16L << 30, "-Xmx1g -XX:+UseSerialGC"))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.getMessage())
                        .startsWith("environment.trial_memory_flags: the fixed flags of the agent's trial JVMs that "
                                + "size memory").endsWith("'-XX:+UseSerialGC' is none"));

        long queued = stored("a small heap", List.of("-Xmx256m"), pool, ExperimentStatus.QUEUED);
        AgentCoordinator larger = coordinator(new JvmFlagPolicy(false, List.of(), JvmFlagPolicy.bounds(64L << 30,
                8L << 30), true));
        long agent = register(larger, "was allowed", pool, null, "-Xmx6g");
        AgentCoordinator smaller = coordinator(new JvmFlagPolicy(false, List.of(), JvmFlagPolicy.bounds(64L << 30,
                4L << 30), true));
        assertThatThrownBy(() -> smaller.poll(agent, AGENT, Duration.ZERO))
                .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.getMessage())
                        .startsWith("agent " + agent + " is given no experiment: the fixed flags agent 'was allowed' "
                                + "starts every trial JVM with").contains("(-Xmx6g)", ": 4 GiB.", "perflab.trials"
                                + ".max-jvm-memory").endsWith("or ask the operator for a larger "
                                + "perflab.trials.max-jvm-memory"));
        assertThat(status(queued)).isEqualTo(ExperimentStatus.QUEUED);
        assertThat(larger.poll(agent, AGENT, Duration.ZERO)).map(Assignment::experimentId).contains(queued);
    }

    /**
     * The refusal of an agent's memory or fixed flags quoted them cut but as they came: a line break (which an
     * environment's value may hold) broke the message, and an escape would act on the terminal that shows it. They
     * are quoted as other messages quote what a client sent.
     */
    @Test
    void aRefusedMemoryOrFixedFlagIsQuotedWithItsControlCharactersEscaped() {
        AgentCoordinator coordinator = coordinator(JvmFlagPolicies.of(false));
        assertThatThrownBy(() -> coordinator.register(new Registration("bench", Map.of(), Map.of("host", "bench",
                AgentHost.MEMORY, "16\n2026-12-06 INFO admin signed in"), false, null, null), AGENT))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.getMessage())
                        .endsWith("got '16\\u000A2026-12-06 INFO admin signed in'").doesNotContain("\n"));
        assertThatThrownBy(() -> AgentHost.trialMemoryFlags(Map.of(AgentHost.TRIAL_MEMORY_FLAGS,
                "-Xmx1g -XX:\u001B[2J\u202E")))
                .hasMessageEndingWith("'-XX:\\u001B[2J\\u202E' is none").message().doesNotContain("\u001B", "\u202E");
    }

    /**
     * A claim that failed an experiment for a flag this server no longer allows quoted the flag as an administrator
     * gave it while raw flags were on, an escape included, into the experiment's error (shown on its page and in its
     * reports) and the log.
     */
    @Test
    void aFlagNoLongerAllowedIsQuotedWithItsControlCharactersEscaped() {
        HostLabels pool = HostLabels.parse("pool=hidden-flag");
        long raw = stored("raw flag with an escape", List.of("-Dx=\u001B[2J\u202E"), pool, ExperimentStatus.QUEUED);
        AgentCoordinator coordinator = coordinator(JvmFlagPolicies.of(false));
        long agent = coordinator.register(new Registration("hidden flag bench", pool.labels(), Map.of("host",
                "bench"), false, null, null), AGENT).agentId();

        assertThat(coordinator.poll(agent, AGENT, Duration.ZERO)).isEmpty();

        assertThat(store.find(raw).orElseThrow().error())
                .contains("the JVM flag '-Dx=\\u001B[2J\\u202E' is not allowed on this server")
                .doesNotContain("\u001B", "\u202E");
    }

    @Test
    void aRegistrationWhoseMemoryIsNotAPositiveNumberOfBytesIsRefusedWithTheFieldNamed() {
        AgentCoordinator coordinator = coordinator(JvmFlagPolicies.of(false));
        for (String memory : List.of("16G", "-1", "0", "1e10", "99999999999999999999", "")) {
            assertThatThrownBy(() -> coordinator.register(new Registration("bench", Map.of(),
                    Map.of("host", "bench", AgentHost.MEMORY, memory), false, null, null), AGENT))
                    .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.getMessage())
                            .as(memory).contains("environment.memory_bytes", "a whole number above 0"));
        }
        // an agent registers its own host's memory
        assertThat(AgentHost.memoryBytes(AgentHost.environment())).isEqualTo(JvmFlagPolicy.hostMemoryBytes())
                .isPositive();
    }
}
