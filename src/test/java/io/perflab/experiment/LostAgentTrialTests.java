package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jdbc.test.autoconfigure.DataJdbcTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A trial of the fresh design that ends after its agent was declared lost (its instance stalled, another instance
 * interrupted the experiment for the next agent to resume) is not stored, and the built-in run stops: the check
 * that the agent holds the experiment is made in the transaction that stores the trial, as for a pair
 * ({@link PairedResumeTests#aRunWhoseAgentWasDeclaredLostStoresNoFurtherPairAndStops}). The trial JVMs are real and
 * fail at once (no such main class), which the runner stores as failed trials.
 */
@DataJdbcTest(properties = "spring.datasource.url=jdbc:h2:mem:lost-agent-trial-tests;DB_CLOSE_DELAY=-1")
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@Import({ExperimentRepository.class, SequentialLookRepository.class, ExperimentRepositoryTests.Json.class})
class LostAgentTrialTests {

    private static final String LOST = "its agent sent no heartbeat";

    @Autowired
    ExperimentRepository store;

    @Autowired
    SequentialLookRepository looks;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    PlatformTransactionManager transactions;

    @Test
    void aTrialEndingAfterItsAgentWasDeclaredLostIsNotStoredAndTheRunStops() {
        long id = queuedFresh(4);
        List<Integer> started = new ArrayList<>();
        // another instance declares the built-in agent lost while trial 1 runs
        ExperimentEvents events = new ExperimentEvents() {
            @Override
            public void publish(long experimentId, String name, Object data) {
                if (name.equals("run-started") && experimentId == id) {
                    int ordinal = (Integer) ((Map<?, ?>) data).get("ordinal");
                    started.add(ordinal);
                    if (ordinal == 1) {
                        assertThat(store.endClaim(id, null, ExperimentStatus.INTERRUPTED, Instant.now(), LOST, true))
                                .isTrue();
                    }
                }
                super.publish(experimentId, name, data);
            }
        };
        ExperimentScheduler scheduler = new ExperimentScheduler(store, looks, events, Clock.systemUTC(),
                JvmFlagPolicies.of(false), io.perflab.runner.experiment.MetricsReader.NONE, transactions,
                new TrialLauncher(List.of("-cp", "none", "None")), (runner, plan, pairs, earlier, listener, rule) -> {
                    throw new AssertionError("a fresh experiment runs no pairs");
                });

        scheduler.runExperiment(id);

        assertThat(store.storedOrdinals(id)).as("trial 1 ended after the claim did").containsExactly(0);
        assertThat(started).as("no trial after the refused one").containsExactly(0, 1);
        ExperimentRecord after = store.find(id).orElseThrow();
        assertThat(after.status()).as("left for the next agent to resume").isEqualTo(ExperimentStatus.INTERRUPTED);
        assertThat(after.error()).isEqualTo(LOST);
    }

    @Test
    void aRemoteAgentsTrialIsRefusedOnceItsClaimEndedAndNothingIsStored() {
        long id = queuedFresh(2);
        long agent = 7;
        // claimed by agent 7, then interrupted for the next agent when agent 7 was declared lost
        assertThat(store.transition(id, ExperimentStatus.QUEUED, ExperimentStatus.INTERRUPTED, Instant.now(), LOST))
                .isTrue();
        ClaimedRuns runs = new ClaimedRuns(store, new ExperimentEvents(), Clock.systemUTC(),
                new TransactionTemplate(transactions));
        ExperimentRecord experiment = store.find(id).orElseThrow();
        TrialResult trial = new TrialResult("without", 0, TrialStatus.OK, Instant.parse("2026-01-01T00:00:00Z"),
                Instant.parse("2026-01-01T00:00:05Z"), 42, Map.of("cpu_us_per_req", 30.0), Map.of(), null);

        assertThatThrownBy(() -> runs.record(agent, experiment, trial))
                .isInstanceOf(ClaimedRuns.NotHeld.class)
                .hasMessage("experiment " + id + " is not running on agent " + agent + " (any more: its agent may have "
                        + "been declared lost); nothing was stored");
        assertThat(store.storedOrdinals(id)).isEmpty();
        assertThat(jdbc.sql("SELECT COUNT(*) FROM trial_run WHERE experiment_id = ?").param(id).query(Long.class)
                .single()).isZero();
    }

    private long queuedFresh(int runs) {
        Workload workload = Workload.DEFAULTS.withRun(Duration.ofMillis(300));
        ExperimentPlan plan = ExperimentPlan.of(
                EngineVariant.of(EngineOptions.defaults().withOption("completion", "monitor"), workload),
                EngineVariant.of(EngineOptions.defaults(), workload), runs).withMaxFailures(2 * runs);
        return StoredExperiments.insert(store, new ExperimentSpec("fresh", null, ExperimentKind.ENGINE, null, plan),
                ExperimentStatus.QUEUED, "tester", Instant.parse("2026-01-01T00:00:00Z"));
    }
}
