package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.MetricsReader;
import io.perflab.runner.experiment.PairedOutcome;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.runner.rpcbench.Workload;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jdbc.test.autoconfigure.DataJdbcTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The built-in agent's scheduler stopped (the service shutting down) while a trial runs, on an H2 database in a
 * file, as the service keeps it: the experiment is stored INTERRUPTED with the shutdown's message, and the database
 * stays open. The scheduler interrupted its thread as it stopped the trial, and the thread was then storing what the
 * trial left: H2 closes its file when a thread writing to it is interrupted, so the store failed, the database was
 * closed for everyone still shutting down, and the log said the experiment had failed.
 */
@DataJdbcTest
// the context closes its connections, and so the database, after the class: before JUnit deletes the directory, not
// at the end of the run, when the cached context would close a database whose file was gone
@DirtiesContext
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@Import({ExperimentRepository.class, SequentialLookRepository.class, ExperimentRepositoryTests.Json.class})
// the scheduler's thread claims the experiment: it is committed, not held in a test's transaction
@Transactional(propagation = Propagation.NOT_SUPPORTED)
class SchedulerShutdownTests {

    /** Where the database's file is; JUnit deletes it after the class, once its context has closed the database. */
    @TempDir
    static Path databaseDirectory;

    @DynamicPropertySource
    static void fileDatabase(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url",
                () -> "jdbc:h2:file:" + databaseDirectory.resolve("perflab") + ";DB_CLOSE_ON_EXIT=FALSE");
    }

    @Autowired
    ExperimentRepository store;

    @Autowired
    SequentialLookRepository looks;

    @Autowired
    PlatformTransactionManager transactions;

    @Autowired
    JdbcClient jdbc;

    @Test
    void aStopWhileATrialRunsStoresTheExperimentInterruptedAndLeavesTheDatabaseOpen() throws Exception {
        java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean interrupted = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicLong experiment = new java.util.concurrent.atomic.AtomicLong();
        ExperimentScheduler scheduler = new ExperimentScheduler(store, looks, new ExperimentEvents(),
                Clock.systemUTC(), JvmFlagPolicies.of(false), MetricsReader.NONE, transactions,
                new TrialLauncher(List.of("-cp", "none", "None")), (runner, plan, pairs, earlier, listener, rule) -> {
                    running.countDown();
                    long until = System.nanoTime() + 30_000_000_000L;
                    while (!runner.isCancelled() && System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                    // a stopped pair's trial JVMs end, and what they leave is stored, for 300 ms here
                    long stored = System.nanoTime() + 300_000_000L;
                    for (int i = 0; System.nanoTime() < stored; i++) {
                        interrupted.compareAndSet(false, Thread.currentThread().isInterrupted());
                        jdbc.sql("UPDATE experiment SET description = ? WHERE id = ?")
                                .params("stored " + i, experiment.get()).update();
                    }
                    return new PairedOutcome(List.of(), PairedOutcome.Stop.CANCELLED, "cancelled");
                });
        Workload workload = Workload.DEFAULTS.withRun(Duration.ofMillis(300));
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(EngineOptions.defaults(), workload),
                EngineVariant.of(EngineOptions.defaults(), workload), 2)
                .withDesign(ExperimentDesign.ALTERNATING, 2);
        experiment.set(StoredExperiments.insert(store, new ExperimentSpec("stopped by a shutdown", null,
                ExperimentKind.ENGINE, null, plan), ExperimentStatus.QUEUED, "tester",
                Instant.parse("2026-01-01T00:00:00Z")));
        scheduler.prepareEngineTrialsWith(launcher -> launcher);

        scheduler.start();
        assertThat(running.await(30, java.util.concurrent.TimeUnit.SECONDS)).as("a pair runs").isTrue();
        scheduler.stop();

        assertThat(interrupted).as("the thread that stores what the stop left was interrupted").isFalse();
        ExperimentRecord after = store.find(experiment.get()).orElseThrow();
        assertThat(after.status()).isEqualTo(ExperimentStatus.INTERRUPTED);
        assertThat(after.error()).isEqualTo("the server shut down while this experiment ran; resume runs the rest");
        assertThat(jdbc.sql("SELECT COUNT(*) FROM experiment WHERE id = ?").param(experiment.get())
                .query(Long.class).single()).as("the database is open").isOne();
        assertThat(databaseDirectory.resolve("perflab.mv.db")).as("the database is a file").isRegularFile();
    }
}
