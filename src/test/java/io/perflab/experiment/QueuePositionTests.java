package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.agent.AgentHost;
import io.perflab.agent.HostLabels;
import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.CommandVariant;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.MetricsReader;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.runner.rpcbench.Workload;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jdbc.test.autoconfigure.DataJdbcTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * A queued experiment's position among the hosts that are live, over the real schema with the service built by hand
 * (no scheduler claims anything here): 1 + the older experiments that a live host able to run it would take first.
 * The position counted every older experiment that some host of its labels could run, whatever the platform of the
 * hosts alive: an experiment that runs anywhere, queued behind a {@code completion=futex} one while the only live
 * host was a Mac, read position 2, though that host passes over the first and takes it next.
 */
@DataJdbcTest(properties = "spring.datasource.url=jdbc:h2:mem:queue-position-tests;DB_CLOSE_DELAY=-1")
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@Import({ExperimentRepository.class, SequentialLookRepository.class, AgentRepository.class,
        ResultsDigestRepository.class, ExperimentRepositoryTests.Json.class})
class QueuePositionTests {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Map<String, String> MAC = Map.of(AgentHost.OS_NAME, "Mac OS X", AgentHost.OS_ARCH, "aarch64");
    private static final Map<String, String> LINUX = Map.of(AgentHost.OS_NAME, "Linux", AgentHost.OS_ARCH, "amd64");

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
    JdbcClient jdbc;

    private ExperimentService service;

    @BeforeEach
    void emptyQueueAndNoHosts() {
        jdbc.sql("UPDATE experiment SET status = 'CANCELLED' WHERE status IN ('QUEUED', 'INTERRUPTED')").update();
        jdbc.sql("UPDATE agent SET status = 'LEFT'").update();
        JvmFlagPolicy jvmFlags = JvmFlagPolicies.of(false);
        Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
        ExperimentScheduler scheduler = new ExperimentScheduler(store, looks, new ExperimentEvents(), clock, jvmFlags,
                MetricsReader.NONE, transactions, new TrialLauncher(List.of("-cp", "none", "None")),
                (runner, plan, pairs, earlier, listener, rule) -> {
                    throw new AssertionError("no pair runs here");
                });
        service = new ExperimentService(store, scheduler, new ExperimentResults(store, digests),
                new ExperimentValidator(new CommandExperimentsPolicy(true), jvmFlags), looks, agents,
                AgentProperties.defaults(), clock);
    }

    @Test
    void anExperimentQueuedBehindOneForAnotherPlatformIsNextForTheLiveHostThatPassesOverIt() {
        long needsLinux = queued(engine("futex"), "");
        long anywhere = queued(engine("monitor"), "");
        long mac = host("mac", "", false, MAC);

        assertThat(service.view(anywhere).queuePosition()).as("the Mac passes over the futex experiment").isEqualTo(1);
        assertThat(service.view(anywhere).waitingForHost()).isNull();
        ExperimentView waiting = service.view(needsLinux);
        assertThat(waiting.queuePosition()).isEqualTo(1);
        assertThat(waiting.waitingForHost().detail()).contains("on Linux on amd64 or aarch64");

        long linux = host("linux", "", false, LINUX);

        assertThat(service.view(anywhere).queuePosition()).as("the Linux host may take the futex experiment first")
                .isEqualTo(2);
        assertThat(service.view(needsLinux).queuePosition()).isEqualTo(1);
        assertThat(service.view(needsLinux).waitingForHost()).isNull();

        silent(linux);

        assertThat(service.view(anywhere).queuePosition()).as("the Linux host is not live").isEqualTo(1);
        assertThat(service.view(needsLinux).waitingForHost()).isNotNull();

        silent(mac);

        assertThat(service.view(anywhere).queuePosition())
                .as("no live host can run it: the older ones a host of its labels could run, as it waits for one")
                .isEqualTo(2);
        assertThat(service.view(anywhere).waitingForHost().detail()).startsWith("Waiting for a host; none alive");
    }

    /**
     * Behind an experiment whose target only hardware counters measure, while the only live host has none, an
     * experiment whose targets every host measures is next: that host passes over the first. Once a host with hardware
     * counters is live, it may take the first before it.
     */
    @Test
    void anExperimentQueuedBehindOneNeedingHardwareCountersIsNextForTheLiveHostWithoutThem() {
        long counted = queued(duet("instructions_per_req:settled"), "");
        long anywhere = queued(duet("cpu_us_per_req:2%"), "");
        host("guest", "", false, LINUX, false);
        host("older", "", false, LINUX, null);

        assertThat(service.view(anywhere).queuePosition()).as("neither host takes the counted experiment")
                .isEqualTo(1);
        assertThat(service.view(counted).waitingForHost().detail()).contains("with hardware counters (target "
                + "instructions_per_req is counted there only)");

        long bareMetal = host("bare metal", "", false, LINUX, true);

        assertThat(service.view(anywhere).queuePosition()).as("the host with counters may take the counted one first")
                .isEqualTo(2);
        assertThat(service.view(counted).queuePosition()).isEqualTo(1);
        assertThat(service.view(counted).waitingForHost()).isNull();

        silent(bareMetal);

        assertThat(service.view(anywhere).queuePosition()).isEqualTo(1);
        assertThat(service.view(counted).waitingForHost()).isNotNull();
    }

    /** A list reads the same positions as each experiment's own view, the live hosts read once for the page. */
    @Test
    void aListShowsEachPositionAmongTheLiveHostsAsItsOwnViewDoes() {
        long needsLinux = queued(engine("futex"), "");
        long command = StoredExperiments.insert(store, new ExperimentSpec("command", null, ExperimentKind.COMMAND,
                null, ExperimentPlan.of(new CommandVariant("sleep 0.1"), new CommandVariant("sleep 0.09"), 2)),
                ExperimentStatus.QUEUED, "tester", T0);
        long onB = queued(engine("monitor"), "pool=b");
        long anywhere = queued(engine("monitor"), "");
        long onA = queued(engine("monitor"), "pool=a");
        host("mac on a", "pool=a", false, MAC);
        host("linux on b", "pool=b", true, LINUX);

        List<ExperimentView> listed = service.summaries(List.of(store.find(anywhere).orElseThrow(),
                store.find(onA).orElseThrow(), store.find(onB).orElseThrow(), store.find(command).orElseThrow(),
                store.find(needsLinux).orElseThrow()));

        assertThat(listed).extracting(ExperimentView::queuePosition)
                .as("anywhere: the Linux host of pool=b runs all three older ones; on pool=a: the Mac there passes "
                        + "over the futex, the command and the pool=b experiments; on pool=b: behind the futex and "
                        + "the command experiments, which its host runs; the command experiment: behind the futex "
                        + "one; the futex one: first")
                .containsExactly(4L, 2L, 3L, 2L, 1L);
        for (ExperimentView row : listed) {
            assertThat(row.queuePosition()).as("row " + row.id() + " as its own view shows it")
                    .isEqualTo(service.view(row.id()).queuePosition());
        }
    }

    private static ExperimentPlan engine(String completion) {
        return ExperimentPlan.of(
                EngineVariant.of(EngineOptions.defaults().withOption("completion", "condvar"), Workload.DEFAULTS),
                EngineVariant.of(EngineOptions.defaults().withOption("completion", completion), Workload.DEFAULTS), 2);
    }

    /** A duet of 2 pairs that runs anywhere, stopped by {@code target}. */
    private static Planned duet(String target) {
        return new Planned(engine("monitor").withDesign(io.perflab.runner.experiment.ExperimentDesign.DUET, 2),
                new PairedStopping(List.of(io.perflab.paired.SequentialStopping.Target.parse(target)),
                        java.util.Optional.empty()));
    }

    /** A plan and its stopping rule. */
    private record Planned(ExperimentPlan plan, PairedStopping stopping) {
    }

    private long queued(ExperimentPlan plan, String hostLabels) {
        return queued(new Planned(plan, PairedStopping.NONE), hostLabels);
    }

    private long queued(Planned planned, String hostLabels) {
        return StoredExperiments.insert(store, new ExperimentSpec("queued", null, ExperimentKind.ENGINE, null,
                planned.plan(), planned.stopping(), HostLabels.parse(hostLabels)), ExperimentStatus.QUEUED, "tester",
                T0);
    }

    /** A live agent, heard now by the database's clock, that said nothing of hardware counters. */
    private long host(String name, String labels, boolean runsCommands, Map<String, String> platform) {
        return host(name, labels, runsCommands, platform, null);
    }

    /** A live agent, heard now by the database's clock, that said {@code hardwareCounters}. */
    private long host(String name, String labels, boolean runsCommands, Map<String, String> platform,
                      Boolean hardwareCounters) {
        return agents.register(name, HostLabels.parse(labels), false, runsCommands, name, platform,
                new io.perflab.agent.HostCounts(null, hardwareCounters), "tester", null, T0);
    }

    /** Its agent silent past the heartbeat timeout. */
    private void silent(long agent) {
        jdbc.sql("UPDATE agent SET last_heartbeat = ? WHERE id = ?")
                .params(ExperimentRepository.timestamp(agents.databaseNow().minusSeconds(3600)), agent).update();
    }
}
