package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.CommandVariant;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.MetricsReader;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.runner.rpcbench.Workload;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jdbc.test.autoconfigure.DataJdbcTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.context.annotation.Import;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The built-in agent's scheduler with a real database and trial JVMs that fail at once: what it does when it starts
 * after its service was killed, and when it makes trial JVMs ready to start fast.
 */
@DataJdbcTest(properties = "spring.datasource.url=jdbc:h2:mem:scheduler-tests;DB_CLOSE_DELAY=-1")
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@Import({ExperimentRepository.class, SequentialLookRepository.class, ExperimentRepositoryTests.Json.class})
class SchedulerTests {

    @Autowired
    ExperimentRepository store;

    @Autowired
    SequentialLookRepository looks;

    @Autowired
    PlatformTransactionManager transactions;

    /**
     * A scheduler that starts after its service was killed marks what that service left running INTERRUPTED, and
     * tells the pages: those open on the other instances of a team setup showed it running, and said nothing until
     * reloaded.
     */
    @Test
    void whatAKilledServiceLeftRunningIsInterruptedAndToldToThePages() {
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(EngineOptions.defaults(), Workload.DEFAULTS),
                EngineVariant.of(EngineOptions.defaults().withOption("completion", "monitor"), Workload.DEFAULTS), 2);
        long id = StoredExperiments.insert(store, new ExperimentSpec("cut short", null, ExperimentKind.ENGINE, null,
                plan), ExperimentStatus.RUNNING, "tester", Instant.parse("2026-01-01T00:00:00Z"));
        List<String> told = new CopyOnWriteArrayList<>();
        ExperimentEvents events = new ExperimentEvents() {
            @Override
            public void publish(long experimentId, String name, Object data) {
                told.add(experimentId + " " + name + " " + ((Map<?, ?>) data).get("status"));
                super.publish(experimentId, name, data);
            }
        };
        ExperimentScheduler scheduler = new ExperimentScheduler(store, looks, events, Clock.systemUTC(),
                JvmFlagPolicies.of(false), MetricsReader.NONE, transactions,
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

    /**
     * The built-in agent makes trial JVMs ready to start fast (the jar extracted, a class-data sharing archive made)
     * when the first engine trial is due, and only then: a command experiment first on a fresh service waited for it,
     * though it starts no trial JVM. The engine experiments' trial JVMs are real and fail at once (no such main class).
     */
    @Test
    void aCommandExperimentRunsWithoutMakingTrialJvmsReadyAndAnEngineOneMakesThemReadyOnce() {
        ExperimentScheduler scheduler = new ExperimentScheduler(store, looks, new ExperimentEvents(),
                Clock.systemUTC(), JvmFlagPolicies.of(false), MetricsReader.NONE, transactions,
                new TrialLauncher(List.of("-cp", "none", "None")), (runner, plan, pairs, earlier, listener, rule) -> {
                    throw new AssertionError("a fresh experiment runs no pairs");
                });
        AtomicInteger prepared = new AtomicInteger();
        scheduler.prepareEngineTrialsWith(launcher -> {
            prepared.incrementAndGet();
            return launcher;
        });

        long command = queued(ExperimentKind.COMMAND,
                ExperimentPlan.of(new CommandVariant("true"), new CommandVariant("true"), 2));
        scheduler.runExperiment(command);

        assertThat(store.find(command).orElseThrow().status()).isEqualTo(ExperimentStatus.COMPLETED);
        assertThat(store.storedOrdinals(command)).containsExactly(0, 1, 2, 3);
        assertThat(prepared).as("no trial JVM to make ready").hasValue(0);

        Workload workload = Workload.DEFAULTS.withRun(Duration.ofMillis(300));
        ExperimentPlan engine = ExperimentPlan.of(EngineVariant.of(EngineOptions.defaults(), workload),
                EngineVariant.of(EngineOptions.defaults(), workload), 2).withMaxFailures(4);
        long first = queued(ExperimentKind.ENGINE, engine);
        long second = queued(ExperimentKind.ENGINE, engine);
        scheduler.runExperiment(first);
        scheduler.runExperiment(second);

        assertThat(store.storedOrdinals(first)).as("its trials ran (and failed)").containsExactly(0, 1, 2, 3);
        assertThat(store.storedOrdinals(second)).containsExactly(0, 1, 2, 3);
        assertThat(prepared).as("made ready for the first engine trial, once").hasValue(1);
    }

    private long queued(ExperimentKind kind, ExperimentPlan plan) {
        return StoredExperiments.insert(store, new ExperimentSpec(kind.name(), null, kind, null, plan),
                ExperimentStatus.QUEUED, "tester", Instant.parse("2026-01-01T00:00:00Z"));
    }
}
