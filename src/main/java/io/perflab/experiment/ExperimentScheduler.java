package io.perflab.experiment;

import io.perflab.runner.experiment.ExperimentOutcome;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.ExperimentRunner;
import io.perflab.runner.experiment.FastStart;
import io.perflab.runner.experiment.MetricsReader;
import io.perflab.runner.experiment.PairedOutcome;
import io.perflab.runner.experiment.PlannedTrial;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.runner.experiment.TrialListener;
import io.perflab.runner.trial.TrialResult;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The host's single experiment executor and the service's built-in agent: claims queued experiments one at a time
 * in FIFO order (concurrent benchmarks would disturb each other) through the same claim as remote agents, one fresh
 * JVM per trial, storing each trial the moment it ends through the same path as their posts ({@link ClaimedRuns}).
 * With {@code perflab.agents.built-in=false} it runs nothing and leaves the queue to remote agents.
 *
 * <p>On start, experiments its built-in agent left {@code RUNNING} by a crash become {@code INTERRUPTED} with their
 * finished runs intact; {@link #resume} runs only the runs the plan still misses, in plan order. A paired design is
 * run by {@link PairedExperimentRun}: pair by pair, each stored whole, and a resumed one runs the pairs it misses
 * whole. A clean shutdown stops the running trial and leaves the experiment {@code INTERRUPTED} too.
 *
 * <p>Over 300 lines because claiming, running, cancelling and stopping the built-in agent's experiment share its one
 * piece of state.
 */
@Component
public class ExperimentScheduler implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ExperimentScheduler.class);
    /** The longest the executor waits before it looks at the queue again, woken or not. */
    private static final Duration RECHECK = Duration.ofSeconds(30);

    /** How long a stop waits for the experiment's thread to store what it left before it interrupts the thread. */
    static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final ExperimentRepository store;
    private final ExperimentEvents events;
    private final Clock clock;
    private final TrialLauncher launcher;
    /** {@link #launcher} made ready to start fast, on the executor's thread when the first engine trial is due. */
    private volatile TrialLauncher prepared;
    /** How {@link #launcher} is made ready to start fast ({@link FastStart}; tests count the calls). */
    private volatile UnaryOperator<TrialLauncher> prepareEngineTrials;
    private final JvmFlagPolicy jvmFlags;
    private final MetricsReader metricsReader;
    private final PairedExperimentRun paired;
    private final ClaimedRuns runs;
    /** Null for a scheduler built without an agent registry: it claims as an agent with no id. */
    private final AgentCoordinator coordinator;
    private volatile Claimant builtIn = new Claimant(null, io.perflab.agent.HostLabels.NONE, true, true,
            io.perflab.agent.HostPlatform.current(), io.perflab.agent.AgentHost.counts(List.of()));
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
                        Clock clock, JvmFlagPolicy jvmFlags, MetricsReader metricsReader,
                        PlatformTransactionManager transactions, AgentCoordinator coordinator) {
        this(store, looks, events, clock, jvmFlags, metricsReader, transactions, TrialLauncher.ofThisJvm(),
                PairedExperimentRun.RUNNER, coordinator);
    }

    /**
     * @param transactions stores each pair with its stopping rule's looks
     * @param launcher how trial JVMs start
     * @param pairs how the pairs of a paired design run (tests stand in for the trial JVMs here)
     */
    ExperimentScheduler(ExperimentRepository store, SequentialLookRepository looks, ExperimentEvents events,
                        Clock clock, JvmFlagPolicy jvmFlags, MetricsReader metricsReader,
                        PlatformTransactionManager transactions, TrialLauncher launcher,
                        PairedExperimentRun.PairExecution pairs) {
        this(store, looks, events, clock, jvmFlags, metricsReader, transactions, launcher, pairs, null);
    }

    private ExperimentScheduler(ExperimentRepository store, SequentialLookRepository looks, ExperimentEvents events,
                                Clock clock, JvmFlagPolicy jvmFlags, MetricsReader metricsReader,
                                PlatformTransactionManager transactions, TrialLauncher launcher,
                                PairedExperimentRun.PairExecution pairs, AgentCoordinator coordinator) {
        this.coordinator = coordinator;
        this.runs = new ClaimedRuns(store, events, clock, new TransactionTemplate(transactions));
        this.store = store;
        this.events = events;
        this.clock = clock;
        this.jvmFlags = jvmFlags;
        this.metricsReader = metricsReader;
        this.launcher = launcher;
        this.prepareEngineTrials = trials -> FastStart.prepare(trials, FastStart.defaultCacheDir(),
                jvmFlags.fixedFlags(), line -> log.info("Trial JVMs: {}", line));
        this.paired = new PairedExperimentRun(store, new PairedStoppingRules(store, looks, clock), events,
                System::nanoTime, pairs, runs);
    }

    /**
     * Stores the experiment as {@code QUEUED}, started by {@code caller} (its name and its stored API token), and wakes
     * the executor; returns its id.
     */
    public long submit(ExperimentSpec spec, ExperimentCaller caller) {
        long id = store.insert(spec, ExperimentStatus.QUEUED, caller.name(), caller.tokenId(), clock.instant());
        events.publish(id, "status", Map.of("experimentId", id, "status", ExperimentStatus.QUEUED.name()));
        wakeUp();
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
        if (store.requestCancel(id)) {
            return true; // running on another agent, or on another instance's built-in one: it stops at its next look
        }
        boolean cancelled = store.transition(id, ExperimentStatus.QUEUED, ExperimentStatus.CANCELLED, clock.instant(),
                "cancelled before it started") || store.cancelAwaitingResume(id, clock.instant());
        if (cancelled) {
            events.publish(id, "status", Map.of("experimentId", id, "status", ExperimentStatus.CANCELLED.name()));
            return true;
        }
        // claimed between the two looks: it runs now, and stops at its next one
        return store.requestCancel(id);
    }

    /**
     * Queues an interrupted, cancelled or failed experiment again; it will run only the runs it misses. One that
     * misses none (its agent stored every trial or pair, or its stopping rule stopped it, and was lost before it
     * posted the end) ends at once as its agent's finish would have ended it, COMPLETED, or FAILED after more
     * failures than its plan allows ({@link ExperimentRepository#endWithNothingLeft}): queued, it would wait for a
     * host of its labels to run nothing.
     *
     * @return QUEUED, COMPLETED or FAILED; empty if the experiment is not in a resumable state
     */
    public Optional<ExperimentStatus> resume(long id) {
        Optional<ExperimentRecord> experiment = store.find(id);
        if (experiment.isEmpty() || !experiment.get().status().resumable()) {
            return Optional.empty();
        }
        store.deleteCancelledRuns(id);
        ExperimentRepository.End end = store.nothingLeftToRun(experiment.get())
                ? store.endWithNothingLeft(experiment.get()) : new ExperimentRepository.End(ExperimentStatus.QUEUED,
                null);
        ExperimentStatus to = end.status();
        if (!store.transition(id, experiment.get().status(), to, clock.instant(), end.error())) {
            return Optional.empty();
        }
        events.publish(id, "status", Map.of("experimentId", id, "status", to.name()));
        if (to == ExperimentStatus.QUEUED) {
            wakeUp();
        } else {
            log.info("Experiment {} resumed: every run of its plan is stored, so it is {}", id, to);
        }
        return Optional.of(to);
    }

    /** Wakes this executor and the polls of remote agents on this instance. */
    private void wakeUp() {
        wakeUps.offer(Boolean.TRUE);
        if (coordinator != null) {
            coordinator.queueChanged();
        }
    }

    /** Cancels the experiment this executor runs now if it is {@code id} (a cancel asked on another instance). */
    private void cancelLocal(long id) {
        Active current = active.get();
        if (current != null && current.experimentId() == id && !current.cancelRequested().getAndSet(true)) {
            current.runner().cancel();
        }
    }

    /** The id of the experiment running now, if any. */
    public Optional<Long> runningExperiment() {
        Active current = active.get();
        return current == null ? Optional.empty() : Optional.of(current.experimentId());
    }

    @Override
    public void start() {
        boolean runs = coordinator == null || coordinator.settings().builtIn();
        if (coordinator != null && runs) {
            builtIn = coordinator.registerBuiltIn(this::cancelLocal);
        }
        List<Long> interrupted = store.interruptRunning(runs ? builtIn.agentId() : null, clock.instant());
        if (!interrupted.isEmpty()) {
            log.warn("Experiments {} were running when the server stopped; they are now INTERRUPTED "
                    + "(POST /api/v1/experiments/{{id}}/resume runs what they miss)", interrupted);
        }
        // pages open on other instances showed them running
        interrupted.forEach(id -> events.publish(id, "status", Map.of("experimentId", id,
                "status", ExperimentStatus.INTERRUPTED.name(),
                "message", ExperimentRepository.INTERRUPTED_BY_RESTART)));
        stopping = false;
        if (!runs) {
            log.info("The built-in agent is off (perflab.agents.built-in=false): remote agents run the experiments");
            return;
        }
        Thread thread = new Thread(this::loop, "perflab-experiments");
        thread.setDaemon(true);
        worker = thread;
        thread.start();
        wakeUps.offer(Boolean.TRUE);
    }

    /**
     * Stops the trial that runs, lets the experiment's thread store what it left and the experiment's end
     * ({@code INTERRUPTED}, resumed later), and ends the thread. The thread is woken, not interrupted, while it does
     * so within {@link #STOP_GRACE}: a thread interrupted while it writes to an H2 database in a file closes the
     * database, for this shutdown's other writers too, and what it stored was lost. Only a thread still busy after
     * that (making trial JVMs ready to start fast) is interrupted.
     */
    @Override
    public void stop() {
        stopping = true;
        Active current = active.get();
        if (current != null) {
            current.runner().cancel();
        }
        Thread thread = worker;
        if (thread != null) {
            wakeUps.offer(Boolean.TRUE);
            if (!joined(thread, STOP_GRACE)) {
                thread.interrupt();
                joined(thread, STOP_GRACE);
            }
        }
        worker = null;
        if (coordinator != null && builtIn.agentId() != null) {
            coordinator.unregisterBuiltIn(builtIn.agentId());
        }
    }

    /** Whether {@code thread} ended within {@code wait}. */
    private static boolean joined(Thread thread, Duration wait) {
        try {
            thread.join(wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }

    @Override
    public boolean isRunning() {
        return worker != null;
    }

    private void loop() {
        while (!stopping) {
            try {
                // woken by a submit or resume here; and every so often in any case, for what another instance
                // queued or a lost agent left to resume, and after an error
                wakeUps.poll(RECHECK.toMillis(), TimeUnit.MILLISECONDS);
                wakeUps.clear();
                Optional<ExperimentRecord> next;
                while (!stopping && (next = store.claimNext(builtIn, clock.instant())).isPresent()) {
                    run(next.get().id());
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                log.error("The experiment executor hit an error; it goes on with the next experiment", e);
            }
        }
    }

    /** Claims queued experiment {@code id} and runs it to its end on this thread (the executor's, or a test's). */
    void runExperiment(long id) {
        if (store.claim(id, builtIn, clock.instant())) {
            run(id);
        }
    }

    /**
     * The launcher with {@link FastStart} applied the first time a trial is due: run from the executable jar, trial
     * JVMs start from the jar extracted once with a class-data sharing archive made once for this server's fixed
     * flags (3.7 s to a warmed-up trial instead of 11.2 s). From a class path with folders (tests, an IDE) it is the
     * launcher as it was.
     */
    private TrialLauncher preparedLauncher() {
        TrialLauncher ready = prepared;
        if (ready == null) {
            ready = prepareEngineTrials.apply(launcher);
            prepared = ready;
        }
        return ready;
    }

    /** Makes the launcher ready to start fast with {@code prepare} instead of {@link FastStart} (for tests). */
    void prepareEngineTrialsWith(UnaryOperator<TrialLauncher> prepare) {
        prepareEngineTrials = prepare;
    }

    /** Runs experiment {@code id}, claimed by the built-in agent, to its end. */
    private void run(long id) {
        Long agentId = builtIn.agentId();
        runs.started(id);
        ExperimentStatus end;
        String message;
        try {
            ExperimentRecord experiment = store.find(id).orElseThrow();
            // a command experiment starts no trial JVM: extracting the jar and making the archive would only delay it
            TrialLauncher trials = experiment.kind() == ExperimentKind.COMMAND ? launcher : preparedLauncher();
            Active current = new Active(id, new ExperimentRunner(trials, metricsReader), new AtomicBoolean());
            active.set(current);
            if (stopping) {
                // claimed as the service began to stop, after stop() looked for a run to cancel
                current.runner().cancel();
            }
            ExperimentPlan stored = store.plan(experiment);
            Optional<String> refused = jvmFlags.refusal(stored);
            if (refused.isPresent()) {
                throw new IllegalStateException(refused.get());
            }
            ExperimentPlan plan = jvmFlags.withFixedFlags(stored);
            ExperimentOutcome.Stop stop;
            if (plan.design().paired()) {
                PairedOutcome outcome = paired.run(experiment, agentId, plan, current.runner());
                // a stop by the rule is a completed experiment; its reason is stored apart, not as an error
                message = outcome.message().isEmpty() || outcome.stop() == PairedOutcome.Stop.STOPPED_BY_RULE ? null
                        : outcome.message();
                stop = switch (outcome.stop()) {
                    case COMPLETED, STOPPED_BY_RULE -> ExperimentOutcome.Stop.COMPLETED;
                    case TOO_MANY_FAILURES -> ExperimentOutcome.Stop.TOO_MANY_FAILURES;
                    case CANCELLED -> ExperimentOutcome.Stop.CANCELLED;
                };
            } else {
                Set<Integer> missing = new TreeSet<>(store.assignment(experiment).pendingOrdinals());
                log.info("Experiment {} '{}': running {} of {} trials", id, experiment.name(), missing.size(),
                        plan.trials().size());
                ExperimentOutcome outcome = current.runner().run(plan, missing,
                        new StoringListener(experiment, agentId));
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
        endStored(id, agentId, end, message);
    }

    /**
     * Stores the experiment's end, again and again while the database refuses (a restart of PostgreSQL): an end
     * left unstored would keep the experiment RUNNING on the built-in agent, which then claims nothing more. On
     * shutdown it gives up; the start of the next one marks the experiment INTERRUPTED.
     */
    private void endStored(long id, Long agentId, ExperimentStatus end, String message) {
        long waitMillis = 1_000;
        while (true) {
            try {
                if (!runs.end(id, agentId, end, message, false)) {
                    log.warn("Experiment {}: the built-in agent no longer holds it (it was declared lost while it "
                            + "ran); its end ({}) is not stored", id, end);
                }
                return;
            } catch (RuntimeException e) {
                if (stopping) {
                    log.error("Experiment {}: its end ({}) could not be stored before shutdown", id, end, e);
                    return;
                }
                log.warn("Experiment {}: could not store its end ({}); trying again in {} s", id, end,
                        waitMillis / 1000, e);
            }
            try {
                Thread.sleep(waitMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            waitMillis = Math.min(2 * waitMillis, RECHECK.toMillis());
        }
    }

    /** Stores each trial as it finishes and tells subscribers, as a remote agent's posts do; heeds cancels. */
    private final class StoringListener implements TrialListener {

        private final ExperimentRecord experiment;
        private final Long agentId;

        StoringListener(ExperimentRecord experiment, Long agentId) {
            this.experiment = experiment;
            this.agentId = agentId;
        }

        @Override
        public void trialStarted(PlannedTrial trial) {
            runs.trialStarted(experiment.id(), trial.ordinal(), trial.variant().label());
        }

        @Override
        public void trialFinished(TrialResult result) {
            try {
                runs.record(agentId, experiment, result);
            } catch (ClaimedRuns.NotHeld e) {
                // declared lost while it ran (this instance stalled): the experiment may run elsewhere now
                log.warn("Experiment {}: trial {} refused, the run stops: {}", experiment.id(), result.ordinal(),
                        e.getMessage());
                cancelLocal(experiment.id());
                return;
            }
            if (store.cancelRequested(experiment.id())) {
                cancelLocal(experiment.id());
            }
        }
    }
}
