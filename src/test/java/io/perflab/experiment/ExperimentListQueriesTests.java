package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.agent.HostLabels;
import io.perflab.paired.PairedFixtures;
import io.perflab.paired.SequentialStopping;
import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.MetricsReader;
import io.perflab.runner.experiment.PairResult;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.runner.rpcbench.Workload;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jdbc.test.autoconfigure.DataJdbcTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * What a list of experiments ({@code /experiments}, {@code GET /api/v1/experiments}) reads of its rows beside their
 * records, over the real schema with the service built by hand: the same values whatever else the page holds, in a
 * number of queries that does not grow with its rows. Paired rows read their pairs, looks and windows one row at a
 * time, and waiting rows their claim and queue position, 3 and 2 queries a row.
 */
@DataJdbcTest(properties = "spring.datasource.url=jdbc:h2:mem:experiment-list-queries-tests;DB_CLOSE_DELAY=-1")
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@Import({ExperimentRepository.class, SequentialLookRepository.class, AgentRepository.class,
        ResultsDigestRepository.class, ExperimentRepositoryTests.Json.class, StatementCounter.class})
class ExperimentListQueriesTests {

    private static final Instant RUN_START = Instant.parse("2025-05-01T10:00:00Z");
    private static final String METRIC = "cpu_us_per_req";

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

    private ExperimentService service() {
        JvmFlagPolicy jvmFlags = JvmFlagPolicies.of(false);
        Clock clock = Clock.fixed(RUN_START.plusSeconds(100), ZoneOffset.UTC);
        ExperimentScheduler scheduler = new ExperimentScheduler(store, looks, new ExperimentEvents(), clock, jvmFlags,
                MetricsReader.NONE, transactions, new TrialLauncher(List.of("-cp", "none", "None")),
                (runner, plan, pairs, earlier, listener, rule) -> {
                    throw new AssertionError("no pair runs here");
                });
        return new ExperimentService(store, scheduler, new ExperimentResults(store, digests),
                new ExperimentValidator(new CommandExperimentsPolicy(false), jvmFlags), looks, agents,
                AgentProperties.defaults(), clock);
    }

    /** The ids of one experiment of each kind a list shows differently, oldest first. */
    private record Round(long running, long completed, long queuedOnA, long queuedPairedOnB, long interrupted) {

        List<Long> all() {
            return List.of(running, completed, queuedOnA, queuedPairedOnB, interrupted);
        }
    }

    /**
     * A running duet of 6 pairs with 3 stored and one failed, and the looks of its stopping rule; a completed
     * alternating experiment of 2 pairs; a queued fresh experiment for hosts of {@code pool=a}, of which one is live;
     * a queued duet for hosts of {@code pool=b}, of which none has registered; an interrupted experiment a claim
     * would resume, for any host.
     */
    private Round round() {
        long running = StoredExperiments.insert(store, spec(ExperimentDesign.DUET, 6, HostLabels.NONE),
                ExperimentStatus.QUEUED, "tester", RUN_START);
        SequentialStopping rule = new SequentialStopping(List.of(SequentialStopping.Target.parse(METRIC + ":1%")), 6,
                0.05, Optional.empty(), () -> 0L, made -> looks.save(running, made));
        double[][] windows = {{30.0, 30.2, 29.1, 29.3}, {31.0, 30.8, 30.2, 30.0}, {30.5, 30.7, 29.4, 29.6}};
        List<PairResult> pairs = new ArrayList<>();
        for (int i = 0; i < windows.length; i++) {
            PairResult pair = PairedFixtures.pair(i, METRIC, new double[] {windows[i][0], windows[i][1]},
                    new double[] {windows[i][2], windows[i][3]});
            store.savePair(running, pair);
            pairs.add(pair);
            rule.afterPair(List.copyOf(pairs));
        }
        store.savePair(running, PairedFixtures.failedPair(3));
        store.transition(running, ExperimentStatus.QUEUED, ExperimentStatus.RUNNING, RUN_START, null);

        long completed = StoredExperiments.insert(store, spec(ExperimentDesign.ALTERNATING, 2, HostLabels.NONE),
                ExperimentStatus.QUEUED, "tester", RUN_START);
        for (int i = 0; i < 2; i++) {
            store.savePair(completed, PairedFixtures.pair(i, METRIC, new double[] {30.0 + i, 30.1}, new double[] {
                29.0, 29.2 + i}));
        }
        store.transition(completed, ExperimentStatus.QUEUED, ExperimentStatus.COMPLETED, RUN_START, null);

        long queuedOnA = StoredExperiments.insert(store, spec(ExperimentDesign.FRESH, 2, HostLabels.parse("pool=a")),
                ExperimentStatus.QUEUED, "tester", RUN_START);
        long queuedPairedOnB = StoredExperiments.insert(store, spec(ExperimentDesign.DUET, 4,
                HostLabels.parse("pool=b")), ExperimentStatus.QUEUED, "tester", RUN_START);
        long interrupted = StoredExperiments.insert(store, spec(ExperimentDesign.FRESH, 2, HostLabels.NONE),
                ExperimentStatus.QUEUED, "tester", RUN_START);
        jdbc.sql("UPDATE experiment SET status = 'INTERRUPTED', resume_on_claim = TRUE WHERE id = ?")
                .param(interrupted).update();
        return new Round(running, completed, queuedOnA, queuedPairedOnB, interrupted);
    }

    private static ExperimentSpec spec(ExperimentDesign design, int runs, HostLabels labels) {
        Workload workload = Workload.DEFAULTS.withRun(Duration.ofMillis(300));
        ExperimentPlan plan = ExperimentPlan.of(
                EngineVariant.of(EngineOptions.defaults().withOption("completion", "monitor"), workload),
                EngineVariant.of(EngineOptions.defaults(), workload), runs);
        if (design.paired()) {
            plan = plan.withDesign(design, 2);
        }
        PairedStopping stopping = design.paired() ? new PairedStopping(List.of(SequentialStopping.Target.parse(
                METRIC + ":1%")), Optional.of(Duration.ofMinutes(6))) : PairedStopping.NONE;
        return new ExperimentSpec(design.label() + " on " + labels.canonical(), null, ExperimentKind.ENGINE, null,
                plan, stopping, labels);
    }

    private void liveAgentOnA() {
        Instant now = agents.databaseNow();
        jdbc.sql("""
                INSERT INTO agent (name, labels, built_in, runs_commands, host, environment, registered_by,
                    registered_at, last_heartbeat, status)
                VALUES ('bench-a', 'pool=a', FALSE, FALSE, 'bench-a', '{}', 'tester', ?, ?, 'IDLE')""")
                .params(ExperimentRepository.timestamp(now), ExperimentRepository.timestamp(now)).update();
    }

    /** A list's page of every experiment, as the API and the page read it: its records, then their rows. */
    private static StatementCounter.Counted<Map<Long, ExperimentView>> listed(ExperimentService service) {
        return StatementCounter.during(() -> service.summaries(service.list(ExperimentFilter.ALL, 0, 100)).stream()
                .collect(Collectors.toMap(ExperimentView::id, Function.identity())));
    }

    @Test
    void aListOfPairedAndWaitingRowsShowsWhatEachShowsAloneInQueriesThatDoNotGrowWithItsRows() {
        ExperimentService service = service();
        liveAgentOnA();
        Round first = round();
        listed(service);                      // the first list stores each row's digest; later ones read them
        StatementCounter.Counted<Map<Long, ExperimentView>> ofOneRound = listed(service);
        Round second = round();
        listed(service);
        StatementCounter.Counted<Map<Long, ExperimentView>> ofTwoRounds = listed(service);

        assertThat(ofTwoRounds.result()).hasSize(10);
        Map<Long, ExperimentView> rows = ofTwoRounds.result();
        for (Round round : List.of(first, second)) {
            ExperimentView running = rows.get(round.running());
            assertThat(running.paired().completedPairs()).isEqualTo(4);
            assertThat(running.paired().failedPairs()).isEqualTo(1);
            assertThat(running.progress()).isEqualTo(new ExperimentView.Progress(16, 24, 4));
            assertThat(running.etaSeconds()).as("mean pair time (20, 20, 20, 5 s) × 2 pairs left").isEqualTo(33);
            assertThat(running.paired().looks()).extracting(SequentialLookRepository.LookRecord::pairs)
                    .containsExactly(2, 3);
            assertThat(running.paired().looks()).isEqualTo(looks.looks(round.running()));
            assertThat(running.paired().placement().pairs()).isEqualTo(3);
            assertThat(running.paired().placement().consecutivePairs()).isEqualTo(2);
            assertThat(running.queuePosition()).isNull();
            ExperimentView completed = rows.get(round.completed());
            assertThat(completed.paired().completedPairs()).isEqualTo(2);
            assertThat(completed.paired().looks()).isEmpty();
            assertThat(completed.paired().placement().pairs()).isEqualTo(2);
            assertThat(completed.progress()).isEqualTo(new ExperimentView.Progress(8, 8, 0));
            assertThat(rows.get(round.queuedOnA()).waitingForHost()).isNull();
            assertThat(rows.get(round.queuedPairedOnB()).waitingForHost().detail())
                    .startsWith("Waiting for a host with labels pool=b; none has registered");
            assertThat(rows.get(round.queuedPairedOnB()).paired().completedPairs()).isZero();
            assertThat(rows.get(round.interrupted()).waitingForHost()).isNull();
        }
        // the older waiting experiments the live host of pool=a would take first; for pool=b, where none is live,
        // those a host of its labels could
        assertThat(List.of(first.queuedOnA(), first.queuedPairedOnB(), first.interrupted(), second.queuedOnA(),
                second.queuedPairedOnB(), second.interrupted())).extracting(id -> rows.get(id).queuePosition())
                .containsExactly(1L, 1L, 2L, 3L, 3L, 4L);
        for (long id : rows.keySet()) {
            ExperimentRecord record = store.find(id).orElseThrow();
            assertThat(rows.get(id)).as("row " + id + " on a page of its own")
                    .isEqualTo(service.summaries(List.of(record)).get(0));
            ExperimentView alone = service.view(id);
            assertThat(rows.get(id)).as("row " + id + " as its own view shows it")
                    .extracting(ExperimentView::paired, ExperimentView::queuePosition, ExperimentView::waitingForHost,
                            ExperimentView::progress, ExperimentView::etaSeconds)
                    .containsExactly(alone.paired(), alone.queuePosition(), alone.waitingForHost(), alone.progress(),
                            alone.etaSeconds());
        }
        assertThat(ofTwoRounds.statements()).as("queries of a list of 10 rows against one of 5")
                .isEqualTo(ofOneRound.statements());
    }
}
