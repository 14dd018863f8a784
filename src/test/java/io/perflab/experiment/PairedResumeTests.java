package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.paired.PairedFixtures;
import io.perflab.paired.SequentialStopping;
import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.PairListener;
import io.perflab.runner.experiment.PairResult;
import io.perflab.runner.experiment.PairStoppingRule;
import io.perflab.runner.experiment.PairedOutcome;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jdbc.test.autoconfigure.DataJdbcTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * A paired experiment resumed after its server died in the middle of a pair (a kill -9 leaves no {@code pairFinished},
 * so the pair has no row) or after a cancel cut a pair short: the scheduler runs only the pairs it misses, each
 * whole and once, the stopping rule sees the stored pairs first, and nothing is stored twice. The runner's pairs are
 * stood in for ({@link PairedExperimentRun.PairExecution}); the store is the real schema.
 */
@DataJdbcTest(properties = "spring.datasource.url=jdbc:h2:mem:paired-resume-tests;DB_CLOSE_DELAY=-1")
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@Import({ExperimentRepository.class, SequentialLookRepository.class, ExperimentRepositoryTests.Json.class})
class PairedResumeTests {

    private static final String METRIC = "cpu_us_per_req";

    @Autowired
    ExperimentRepository store;

    @Autowired
    SequentialLookRepository looks;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    PlatformTransactionManager transactions;

    /** What the stand-in runner was asked each time, and how it lets the pairs end. */
    private final List<List<Integer>> requested = new ArrayList<>();
    private final List<List<Integer>> earlierSeen = new ArrayList<>();
    private final List<List<Integer>> ruleSaw = new ArrayList<>();
    private boolean dieInTheFirstPair;
    /** The pair before whose end another instance declares the run's agent lost and interrupts it; -1: none. */
    private int lostBeforePair = -1;
    private long lostExperiment;

    private ExperimentScheduler scheduler;

    @BeforeEach
    void scheduler() {
        scheduler = new ExperimentScheduler(store, looks, new ExperimentEvents(), Clock.systemUTC(),
                JvmFlagPolicies.of(false), io.perflab.runner.experiment.MetricsReader.NONE, transactions,
                new TrialLauncher(List.of("-cp", "none", "None")), this::runPairs);
    }

    /** Runs each requested pair: its windows one by one, then the pair whole; or, told to, dies in the first one. */
    private PairedOutcome runPairs(io.perflab.runner.experiment.ExperimentRunner runner, ExperimentPlan plan,
                                   Collection<Integer> pairs, List<PairResult> earlier, PairListener listener,
                                   PairStoppingRule rule) {
        requested.add(List.copyOf(pairs));
        earlierSeen.add(earlier.stream().map(PairResult::index).toList());
        List<PairResult> all = new ArrayList<>(earlier);
        List<PairResult> ran = new ArrayList<>();
        for (int index : pairs) {
            PairResult pair = pair(index);
            listener.pairStarted(index, pair.placement());
            pair.results().stream().limit(dieInTheFirstPair ? 2 : Long.MAX_VALUE).forEach(listener::windowFinished);
            if (dieInTheFirstPair) {
                dieInTheFirstPair = false;
                PairResult cut = new PairResult(index, TrialStatus.CANCELLED, pair.placement(), List.of(), pair.start(),
                        pair.end(), Duration.ZERO, Duration.ZERO, "cancelled");
                listener.pairFinished(cut);
                return new PairedOutcome(List.of(cut), PairedOutcome.Stop.CANCELLED, "cancelled after 1 of "
                        + pairs.size() + " pairs");
            }
            if (index == lostBeforePair) {
                assertThat(store.endClaim(lostExperiment, null, ExperimentStatus.INTERRUPTED, Instant.now(),
                        "its agent sent no heartbeat", true)).isTrue();
            }
            listener.pairFinished(pair);
            all.add(pair);
            ran.add(pair);
            ruleSaw.add(all.stream().map(PairResult::index).toList());
            PairStoppingRule.Decision decision = rule.afterPair(List.copyOf(all));
            if (decision.stop()) {
                return new PairedOutcome(ran, PairedOutcome.Stop.STOPPED_BY_RULE, decision.reason());
            }
        }
        return new PairedOutcome(ran, PairedOutcome.Stop.COMPLETED, "");
    }

    /** Pair {@code index}: two windows of each variant, the change about −3 %. */
    private static PairResult pair(int index) {
        return PairedFixtures.pair(index, METRIC, new double[] {30.0 + index % 2, 30.4},
                new double[] {29.1 + index % 2, 29.5 - 0.1 * index});
    }

    @Test
    void aPairWithoutItsEndRunsAgainWholeAndOnceOnResume() {
        long id = interruptedDuet(2, PairedStopping.NONE);
        store.savePair(id, pair(0));
        // the server died in pair 1 after two of its windows: none of them stored, since pairs are stored whole
        assertThat(store.runs(id)).allSatisfy(r -> assertThat(r.pair().index()).isZero());

        assertThat(scheduler.resume(id)).contains(ExperimentStatus.QUEUED);
        scheduler.runExperiment(id);

        ExperimentRecord done = store.find(id).orElseThrow();
        assertThat(done.status()).as(String.valueOf(done.error())).isEqualTo(ExperimentStatus.COMPLETED);
        assertThat(requested).containsExactly(List.of(1));
        assertThat(earlierSeen).containsExactly(List.of(0));
        assertThat(store.storedPairs(id)).containsExactly(0, 1);
        assertNothingTwice(id, 2);
    }

    @Test
    void aPairCutShortIsNotStoredAndRunsAgainWholeWhenResumed() {
        long id = interruptedDuet(3, PairedStopping.NONE);
        store.savePair(id, pair(0));
        dieInTheFirstPair = true;

        assertThat(scheduler.resume(id)).contains(ExperimentStatus.QUEUED);
        scheduler.runExperiment(id);

        assertThat(store.find(id).orElseThrow().status()).isEqualTo(ExperimentStatus.CANCELLED);
        assertThat(store.storedPairs(id)).containsExactly(0);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM trial_run WHERE experiment_id = ? AND pair_index = 1").param(id)
                .query(Long.class).single()).as("no window of the pair cut short").isZero();

        assertThat(scheduler.resume(id)).contains(ExperimentStatus.QUEUED);
        scheduler.runExperiment(id);

        assertThat(store.find(id).orElseThrow().status()).isEqualTo(ExperimentStatus.COMPLETED);
        assertThat(requested).containsExactly(List.of(1, 2), List.of(1, 2));
        assertThat(store.storedPairs(id)).containsExactly(0, 1, 2);
        assertNothingTwice(id, 3);
    }

    @Test
    void aResumedRuleSeesTheStoredPairsFirstAndItsStopIsKept() {
        long id = interruptedDuet(6, new PairedStopping(List.of(SequentialStopping.Target.parse(METRIC + ":50%")),
                Optional.empty()));
        store.savePair(id, pair(0));

        assertThat(scheduler.resume(id)).contains(ExperimentStatus.QUEUED);
        scheduler.runExperiment(id);

        ExperimentRecord done = store.find(id).orElseThrow();
        assertThat(done.status()).isEqualTo(ExperimentStatus.COMPLETED);
        assertThat(done.error()).isNull();
        assertThat(ruleSaw.get(0)).containsExactly(0, 1);
        assertThat(done.stopReason()).startsWith("every target is settled: " + METRIC);
        assertThat(store.storedPairs(id)).hasSizeLessThan(6).startsWith(0, 1);
        assertThat(looks.looks(id)).isNotEmpty().allSatisfy(l -> assertThat(l.metric()).isEqualTo(METRIC));
        assertNothingTwice(id, store.storedPairs(id).size());
    }

    @Test
    void aRunWhoseAgentWasDeclaredLostStoresNoFurtherPairAndStops() {
        long id = interruptedDuet(4, PairedStopping.NONE);
        store.savePair(id, pair(0));
        // this instance stalls in pair 2: another one declares its built-in agent lost and interrupts the run
        lostExperiment = id;
        lostBeforePair = 2;

        assertThat(scheduler.resume(id)).contains(ExperimentStatus.QUEUED);
        scheduler.runExperiment(id);

        assertThat(store.storedPairs(id)).as("pair 2 ended after the claim did").containsExactly(0, 1);
        assertThat(ruleSaw).as("pair 3 never ran").containsExactly(List.of(0, 1), List.of(0, 1, 2));
        ExperimentRecord after = store.find(id).orElseThrow();
        assertThat(after.status()).as("left for the next agent to resume").isEqualTo(ExperimentStatus.INTERRUPTED);
        assertThat(after.error()).isEqualTo("its agent sent no heartbeat");
        assertNothingTwice(id, 2);
    }

    /** Every stored pair has all its runs once, and every run its samples once. */
    private void assertNothingTwice(long id, int pairs) {
        List<RunRecord> runs = store.runs(id);
        assertThat(runs).hasSize(pairs * 4);
        assertThat(runs).extracting(RunRecord::ordinal).doesNotHaveDuplicates();
        assertThat(runs).extracting(r -> r.pair().index() + "/" + r.pair().window() + "/" + r.variant())
                .doesNotHaveDuplicates();
        assertThat(jdbc.sql("""
                SELECT COUNT(*) FROM sample s JOIN trial_run r ON r.id = s.run_id WHERE r.experiment_id = ?""")
                .param(id).query(Long.class).single()).isEqualTo(pairs * 4L);
        assertThat(store.pairs(id)).extracting(p -> p.results().stream().map(TrialResult::ordinal).toList())
                .allSatisfy(ordinals -> assertThat(ordinals).hasSize(4));
    }

    private long interruptedDuet(int pairs, PairedStopping stopping) {
        Workload workload = Workload.DEFAULTS.withRun(Duration.ofMillis(300));
        ExperimentPlan plan = ExperimentPlan.of(
                        EngineVariant.of(EngineOptions.defaults().withOption("completion", "monitor"), workload),
                        EngineVariant.of(EngineOptions.defaults(), workload), pairs)
                .withDesign(ExperimentDesign.DUET, 2);
        return StoredExperiments.insert(store, new ExperimentSpec("resumed duet", null, ExperimentKind.ENGINE, null,
                plan, stopping), ExperimentStatus.INTERRUPTED, "tester", Instant.parse("2026-01-01T00:00:00Z"));
    }
}
