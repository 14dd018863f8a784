package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.runner.rpcbench.Workload;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jdbc.test.autoconfigure.DataJdbcTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.context.annotation.Import;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * A scheduler that starts after its service was killed marks what that service left running INTERRUPTED, and tells
 * the pages: those open on the other instances of a team setup showed it running, and said nothing until reloaded.
 */
@DataJdbcTest(properties = "spring.datasource.url=jdbc:h2:mem:scheduler-restart-tests;DB_CLOSE_DELAY=-1")
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@Import({ExperimentRepository.class, SequentialLookRepository.class, ExperimentRepositoryTests.Json.class})
class SchedulerRestartTests {

    @Autowired
    ExperimentRepository store;

    @Autowired
    SequentialLookRepository looks;

    @Autowired
    PlatformTransactionManager transactions;

    @Test
    void whatAKilledServiceLeftRunningIsInterruptedAndToldToThePages() {
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(EngineOptions.defaults(), Workload.DEFAULTS),
                EngineVariant.of(EngineOptions.defaults().withOption("completion", "monitor"), Workload.DEFAULTS), 2);
        long id = store.insert(new ExperimentSpec("cut short", null, ExperimentKind.ENGINE, null, plan),
                ExperimentStatus.RUNNING, "tester", Instant.parse("2026-01-01T00:00:00Z"));
        List<String> told = new CopyOnWriteArrayList<>();
        ExperimentEvents events = new ExperimentEvents() {
            @Override
            public void publish(long experimentId, String name, Object data) {
                told.add(experimentId + " " + name + " " + ((Map<?, ?>) data).get("status"));
                super.publish(experimentId, name, data);
            }
        };
        ExperimentScheduler scheduler = new ExperimentScheduler(store, looks, events, Clock.systemUTC(),
                new JvmFlagPolicy(false), io.perflab.runner.experiment.MetricsReader.NONE, transactions,
                new TrialLauncher(List.of("-cp", "none", "None")), (runner, p, pairs, earlier, listener, rule) -> {
                    throw new AssertionError("no pair runs here");
                });

        scheduler.start();
        scheduler.stop();

        ExperimentRecord after = store.find(id).orElseThrow();
        assertThat(after.status()).isEqualTo(ExperimentStatus.INTERRUPTED);
        assertThat(after.error()).isEqualTo(ExperimentRepository.INTERRUPTED_BY_RESTART);
        assertThat(told).contains(id + " status INTERRUPTED");
    }
}
