package io.perflab.experiment;

import io.perflab.runner.experiment.ExperimentOutcome;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.ExperimentRunner;
import io.perflab.runner.experiment.MetricsReader;
import io.perflab.runner.experiment.PairedOutcome;
import io.perflab.runner.experiment.PlannedTrial;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.runner.experiment.TrialListener;
import io.perflab.runner.trial.TrialResult;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The host's single experiment executor: runs queued experiments one at a time in FIFO order (concurrent
 * benchmarks would disturb each other), one fresh JVM per trial, storing each trial the moment it ends.
 *
 * <p>On start, experiments left {@code RUNNING} by a crash become {@code INTERRUPTED} with their finished runs
 * intact; {@link #resume} runs only the runs the plan still misses, in plan order. A paired design is run by
 * {@link PairedExperimentRun}: pair by pair, each stored whole, and a resumed one runs the pairs it misses whole.
 * A clean shutdown stops the running trial and leaves the experiment {@code INTERRUPTED} too.
 */
@Component
public class ExperimentScheduler implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ExperimentScheduler.class);

    private final ExperimentRepository store;
    private final ExperimentEvents events;
    private final Clock clock;
    private final TrialLauncher launcher;
    private final JvmFlagPolicy jvmFlags;
    private final MetricsReader metricsReader;
    private final PairedExperimentRun paired;
    private final LinkedBlockingQueue<Boolean> wakeUps = new LinkedBlockingQueue<>();
    private final AtomicReference<Active> active = new AtomicReference<>();
    private volatile boolean stopping;
    private volatile Thread worker;

    /** The experiment running now and its runner. */
    private record Active(long experimentId, ExperimentRunner runner, AtomicBoolean cancelRequested) {
    }

    /** @param metricsReader reads what the commands of command experiments print, in their variants' formats */
    @Autowired
    ExperimentScheduler(ExperimentRepository store, SequentialLookRepository looks, ExperimentEvents events,
                        Clock clock, JvmFlagPolicy jvmFlags, MetricsReader metricsReader) {
        this(store, looks, events, clock, jvmFlags, metricsReader, TrialLauncher.ofThisJvm(),
                PairedExperimentRun.RUNNER);
    }

    /**
     * @param launcher how trial JVMs start
     * @param pairs how the pairs of a paired design run (tests stand in for the trial JVMs here)
     */
    ExperimentScheduler(ExperimentRepository store, SequentialLookRepository looks, ExperimentEvents events,
                        Clock clock, JvmFlagPolicy jvmFlags, MetricsReader metricsReader, TrialLauncher launcher,
                        PairedExperimentRun.PairExecution pairs) {
        this.store = store;
        this.events = events;
        this.clock = clock;
        this.jvmFlags = jvmFlags;
        this.metricsReader = metricsReader;
        this.launcher = launcher;
        this.paired = new PairedExperimentRun(store, looks, events, System::nanoTime, pairs);
    }

    /** Stores the experiment as {@code QUEUED} and wakes the executor; returns its id. */
    public long submit(ExperimentSpec spec, String createdBy) {
        long id = store.insert(spec, ExperimentStatus.QUEUED, createdBy, clock.instant());
        events.publish(id, "status", Map.of("experimentId", id, "status", ExperimentStatus.QUEUED.name()));
        wakeUps.offer(Boolean.TRUE);
        return id;
    }

    /**
     * Cancels a queued or running experiment: a running trial's process tree is killed, finished runs are kept.
     *
     * @return false if the experiment had already finished
     */
    public boolean cancel(long id) {
        Active current = active.get();
        if (current != null && current.experimentId() == id) {
            current.cancelRequested().set(true);
            current.runner().cancel();
            return true;
        }
        boolean cancelled = store.transition(id, ExperimentStatus.QUEUED, ExperimentStatus.CANCELLED, clock.instant(),
                "cancelled before it started");
        if (cancelled) {
            events.publish(id, "status", Map.of("experimentId", id, "status", ExperimentStatus.CANCELLED.name()));
        }
        return cancelled;
    }

    /**
     * Queues an interrupted, cancelled or failed experiment again; it will run only the runs it misses.
     *
     * @return false if the experiment is not in a resumable state
     */
    public boolean resume(long id) {
        Optional<ExperimentRecord> experiment = store.find(id);
        if (experiment.isEmpty() || !experiment.get().status().resumable()) {
            return false;
        }
        store.deleteCancelledRuns(id);
        if (!store.transition(id, experiment.get().status(), ExperimentStatus.QUEUED, clock.instant(), null)) {
            return false;
        }
        events.publish(id, "status", Map.of("experimentId", id, "status", ExperimentStatus.QUEUED.name()));
        wakeUps.offer(Boolean.TRUE);
        return true;
    }

    /** The id of the experiment running now, if any. */
    public Optional<Long> runningExperiment() {
        Active current = active.get();
        return current == null ? Optional.empty() : Optional.of(current.experimentId());
    }

    @Override
    public void start() {
        List<Long> interrupted = store.interruptRunning(clock.instant());
        if (!interrupted.isEmpty()) {
            log.warn("Experiments {} were running when the server stopped; they are now INTERRUPTED "
                    + "(POST /api/v1/experiments/{{id}}/resume runs what they miss)", interrupted);
        }
        stopping = false;
        Thread thread = new Thread(this::loop, "perflab-experiments");
        thread.setDaemon(true);
        worker = thread;
        thread.start();
        wakeUps.offer(Boolean.TRUE);
    }

    @Override
    public void stop() {
        stopping = true;
        Active current = active.get();
        if (current != null) {
            current.runner().cancel();
        }
        Thread thread = worker;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        worker = null;
    }

    @Override
    public boolean isRunning() {
        return worker != null;
    }

    private void loop() {
        while (!stopping) {
            try {
                wakeUps.take();
                wakeUps.clear();
                Optional<Long> next;
                while (!stopping && (next = store.nextQueued()).isPresent()) {
                    runExperiment(next.get());
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                log.error("The experiment executor hit an error; it goes on with the next experiment", e);
            }
        }
    }

    /** Runs queued experiment {@code id} to its end on this thread (the executor's, or a test's). */
    void runExperiment(long id) {
        if (!store.transition(id, ExperimentStatus.QUEUED, ExperimentStatus.RUNNING, clock.instant(), null)) {
            return;
        }
        events.publish(id, "status", Map.of("experimentId", id, "status", ExperimentStatus.RUNNING.name()));
        ExperimentStatus end;
        String message;
        Active current = new Active(id, new ExperimentRunner(launcher, metricsReader), new AtomicBoolean());
        active.set(current);
        try {
            ExperimentRecord experiment = store.find(id).orElseThrow();
            ExperimentPlan stored = store.plan(experiment);
            Optional<String> refused = jvmFlags.refusal(stored);
            if (refused.isPresent()) {
                throw new IllegalStateException(refused.get());
            }
            ExperimentPlan plan = jvmFlags.withFixedFlags(stored);
            ExperimentOutcome.Stop stop;
            if (plan.design().paired()) {
                PairedOutcome outcome = paired.run(experiment, plan, current.runner());
                // a stop by the rule is a completed experiment; its reason is stored apart, not as an error
                message = outcome.message().isEmpty() || outcome.stop() == PairedOutcome.Stop.STOPPED_BY_RULE ? null
                        : outcome.message();
                stop = switch (outcome.stop()) {
                    case COMPLETED, STOPPED_BY_RULE -> ExperimentOutcome.Stop.COMPLETED;
                    case TOO_MANY_FAILURES -> ExperimentOutcome.Stop.TOO_MANY_FAILURES;
                    case CANCELLED -> ExperimentOutcome.Stop.CANCELLED;
                };
            } else {
                Set<Integer> missing = new TreeSet<>();
                plan.trials().forEach(t -> missing.add(t.ordinal()));
                missing.removeAll(store.storedOrdinals(id));
                log.info("Experiment {} '{}': running {} of {} trials", id, experiment.name(), missing.size(),
                        plan.trials().size());
                ExperimentOutcome outcome = current.runner().run(plan, missing, new StoringListener(experiment));
                message = outcome.message().isEmpty() ? null : outcome.message();
                stop = outcome.stop();
            }
            end = switch (stop) {
                case COMPLETED -> ExperimentStatus.COMPLETED;
                case TOO_MANY_FAILURES -> ExperimentStatus.FAILED;
                case CANCELLED -> stopping && !current.cancelRequested().get()
                        ? ExperimentStatus.INTERRUPTED : ExperimentStatus.CANCELLED;
            };
            if (end == ExperimentStatus.INTERRUPTED) {
                message = "the server shut down while this experiment ran; resume runs the rest";
            }
        } catch (RuntimeException e) {
            log.error("Experiment {} failed", id, e);
            end = ExperimentStatus.FAILED;
            message = "PerfLab could not run this experiment: " + e.getMessage();
        } finally {
            active.set(null);
        }
        store.transition(id, ExperimentStatus.RUNNING, end, clock.instant(), message);
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("experimentId", id);
        event.put("status", end.name());
        if (message != null) {
            event.put("message", message);
        }
        events.publish(id, "status", event);
    }

    /** Stores each trial as it finishes and tells subscribers. */
    private final class StoringListener implements TrialListener {

        private final ExperimentRecord experiment;

        StoringListener(ExperimentRecord experiment) {
            this.experiment = experiment;
        }

        @Override
        public void trialStarted(PlannedTrial trial) {
            events.publish(experiment.id(), "run-started", Map.of("experimentId", experiment.id(),
                    "ordinal", trial.ordinal(), "variant", trial.variant().label()));
        }

        @Override
        public void trialFinished(TrialResult result) {
            store.saveRun(experiment.id(), result);
            long stored = store.storedOrdinals(experiment.id()).size();
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("experimentId", experiment.id());
            event.put("ordinal", result.ordinal());
            event.put("variant", result.variant());
            event.put("status", result.status().name());
            event.put("completedRuns", stored);
            event.put("totalRuns", experiment.totalRuns());
            event.put("metrics", result.metrics());
            if (result.error() != null) {
                event.put("error", result.error());
            }
            events.publish(experiment.id(), "run", event);
        }
    }
}
