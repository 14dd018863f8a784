package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.agent.HostLabels;
import io.perflab.paired.PairedFixtures;
import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.PairStoppingRule;
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
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The {@code run} events that keep an open experiment page current carry the figures the page shows beside its
 * progress bar, counted as the experiment's view counts them: the failed runs too, so that a failure shows without a
 * reload.
 */
@DataJdbcTest(properties = "spring.datasource.url=jdbc:h2:mem:live-progress-events-tests;DB_CLOSE_DELAY=-1")
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@Import({ExperimentRepository.class, SequentialLookRepository.class, ExperimentRepositoryTests.Json.class})
class LiveProgressEventsTests {

    private static final Claimant BUILT_IN = new Claimant(null, HostLabels.NONE, true, true,
            io.perflab.agent.HostPlatform.current(), null);

    @Autowired
    ExperimentRepository store;

    @Autowired
    PlatformTransactionManager transactions;

    private final List<Map<String, Object>> runEvents = new ArrayList<>();

    private final ExperimentEvents events = new ExperimentEvents() {
        @Override
        public void publish(long experimentId, String name, Object data) {
            if (name.equals("run")) {
                runEvents.add(cast(data));
            }
            super.publish(experimentId, name, data);
        }
    };

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Object data) {
        return (Map<String, Object>) data;
    }

    private ClaimedRuns runs() {
        return new ClaimedRuns(store, events, Clock.systemUTC(), new TransactionTemplate(transactions));
    }

    @Test
    void aFailedTrialsEventCountsTheFailedRunsAsTheViewDoes() {
        long id = queued(ExperimentPlan.of(variant("monitor"), variant("notification"), 2));
        assertThat(store.claim(id, BUILT_IN, Instant.now())).isTrue();
        ExperimentRecord experiment = store.find(id).orElseThrow();

        runs().record(null, experiment, trial(0, TrialStatus.OK));
        runs().record(null, experiment, trial(1, TrialStatus.FAILED));

        assertThat(runEvents).hasSize(2);
        assertThat(runEvents.get(0)).containsEntry("completedRuns", 1L).containsEntry("failedRuns", 0L);
        assertThat(runEvents.get(1)).containsEntry("completedRuns", 2L).containsEntry("failedRuns", 1L);
    }

    @Test
    void aStoredFailedPairsEventCountsAllItsWindowsFailed() {
        long id = queued(ExperimentPlan.of(variant("monitor"), variant("notification"), 3)
                .withDesign(ExperimentDesign.DUET, 2));
        assertThat(store.claim(id, BUILT_IN, Instant.now())).isTrue();
        ExperimentRecord experiment = store.find(id).orElseThrow();

        runs().recordPair(null, experiment, PairedFixtures.pair(0, "cpu_us_per_req", new double[] {30, 30},
                new double[] {29, 29}), () -> PairStoppingRule.Decision.CONTINUE);
        runs().recordPair(null, experiment, PairedFixtures.failedPair(1), () -> PairStoppingRule.Decision.CONTINUE);

        assertThat(runEvents).hasSize(2);
        assertThat(runEvents.get(0)).containsEntry("completedRuns", 4).containsEntry("failedRuns", 0L);
        assertThat(runEvents.get(1)).containsEntry("completedRuns", 8).containsEntry("failedRuns", 4L)
                .containsEntry("totalRuns", 12);
    }

    @Test
    void aTrialsEventCarriesTheTimeLeftAsTheViewEstimatesIt() {
        long id = queued(ExperimentPlan.of(variant("monitor"), variant("notification"), 2));
        assertThat(store.claim(id, BUILT_IN, Instant.now())).isTrue();
        ExperimentRecord experiment = store.find(id).orElseThrow();

        runs().record(null, experiment, trial(0, TrialStatus.OK));

        // 4 trials planned, one of 5 s stored: 3 × 5 s left
        assertThat(runEvents.get(0)).containsEntry("etaSeconds", 15L);
    }

    @Test
    void aStoredPairsEventCarriesTheTimeLeftAsTheViewEstimatesIt() {
        long id = queued(ExperimentPlan.of(variant("monitor"), variant("notification"), 3)
                .withDesign(ExperimentDesign.DUET, 2));
        assertThat(store.claim(id, BUILT_IN, Instant.now())).isTrue();
        ExperimentRecord experiment = store.find(id).orElseThrow();

        runs().recordPair(null, experiment, PairedFixtures.pair(0, "cpu_us_per_req", new double[] {30, 30},
                new double[] {29, 29}), () -> PairStoppingRule.Decision.CONTINUE);

        // 3 pairs planned, one of 20 s stored: 2 × 20 s left
        assertThat(runEvents.get(0)).containsEntry("etaSeconds", 40L);
    }

    private static EngineVariant variant(String completion) {
        return EngineVariant.of(EngineOptions.defaults().withOption("completion", completion),
                Workload.DEFAULTS.withRun(Duration.ofMillis(300)));
    }

    private long queued(ExperimentPlan plan) {
        return StoredExperiments.insert(store, new ExperimentSpec("live", null, ExperimentKind.ENGINE, null, plan),
                ExperimentStatus.QUEUED, "tester", Instant.parse("2026-01-01T00:00:00Z"));
    }

    private static TrialResult trial(int ordinal, TrialStatus status) {
        return new TrialResult(ordinal % 2 == 0 ? "without" : "with", ordinal, status,
                Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2026-01-01T00:00:05Z"), 42,
                status == TrialStatus.OK ? Map.of("cpu_us_per_req", 30.0) : Map.of(), Map.of(),
                status == TrialStatus.OK ? null : "exit 1");
    }
}
