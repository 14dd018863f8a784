package io.perflab.agent;

import io.perflab.agent.AgentProtocol.Assignment;
import io.perflab.agent.AgentProtocol.Finish;
import io.perflab.agent.AgentProtocol.HeartbeatAnswer;
import io.perflab.agent.AgentProtocol.PairAnswer;
import io.perflab.agent.AgentProtocol.PostedPair;
import io.perflab.agent.AgentProtocol.PostedTrial;
import io.perflab.agent.AgentProtocol.Registered;
import io.perflab.agent.AgentProtocol.Registration;
import io.perflab.agent.AgentProtocol.TrialAnswer;
import io.perflab.runner.experiment.ExperimentOutcome;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.PairResult;
import io.perflab.runner.experiment.PairStoppingRule;
import io.perflab.runner.experiment.PairedOutcome;
import io.perflab.runner.experiment.ExperimentRunner;
import io.perflab.runner.experiment.MetricsReader;
import io.perflab.runner.experiment.PlannedTrial;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.runner.experiment.TrialListener;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * What {@code perflab agent} does on a benchmark host: registers, heartbeats on a thread of its own, long-polls for
 * an experiment, runs its pending trials with the runner the service's scheduler uses, posts each trial the moment it
 * ends (retrying while the service cannot be reached: a retried post stores nothing twice), and posts how the run
 * ended. A paired design's pairs are posted whole, and the service, which takes the stopping rule's looks as they
 * are stored, says in its answer when the rule stops the experiment; no further pair runs then. When the service
 * declares it lost, it drops the experiment (the service has interrupted it) and registers again. {@link #stop()}
 * cancels the running trial and hands the experiment back as INTERRUPTED, for another agent of the same labels to
 * resume, or cuts a waiting poll short; then the agent tells the service it leaves. Over 300 lines because the run,
 * the heartbeat thread and the retried posts share the state of the one experiment running.
 */
public final class AgentLoop {

    private static final Duration FIRST_RETRY = Duration.ofMillis(250);
    private static final String REFUSED_TRIAL = "the service refused a trial: ";
    static final String RUNS_NO_COMMANDS = "this agent does not run commands (it was started without --commands), "
            + "so it ran nothing of this command experiment";
    private static final Duration LAST_RETRY = Duration.ofSeconds(5);

    /** A call to the service. */
    @FunctionalInterface
    private interface Call<T> {
        T send() throws IOException;
    }

    private final AgentClient client;
    private final Registration registration;
    private final TrialLauncher launcher;
    private final UnaryOperator<TrialLauncher> prepareEngineTrials;
    /** The launcher of engine trials once prepared: at the first engine experiment, on the thread that runs it. */
    private TrialLauncher engineTrialLauncher;
    private final MetricsReader metricsReader;
    private final int pollWaitSeconds;
    private final List<String> fixedJvmArgs;
    private final Consumer<String> log;
    private final CountDownLatch stopped = new CountDownLatch(1);
    /** Counted down when {@link #run} returns. */
    private final CountDownLatch ended = new CountDownLatch(1);
    private final AtomicBoolean lost = new AtomicBoolean();
    private volatile long agentId = -1;
    private volatile Running running;
    /**
     * Guards {@link #polling} and {@link #pollCutShort}: {@link #stop()} interrupts the thread of {@link #run} only
     * while it waits in a poll, and that interrupt is cleared under the same guard as the poll returns, so that none
     * reaches the run of an experiment or the post of its end.
     */
    private final Object pollGuard = new Object();
    /** The thread waiting in a poll now, or null. */
    private Thread polling;
    /** Whether {@link #stop()} interrupted the poll under way. */
    private boolean pollCutShort;

    /** The experiment running now: its runner, why it was cut short, if it was, and why its rule stopped it. */
    private static final class Running {
        final long experimentId;
        final ExperimentRunner runner;
        volatile String cancelledBy;
        volatile String stoppedByRule;

        Running(long experimentId, ExperimentRunner runner) {
            this.experimentId = experimentId;
            this.runner = runner;
        }

        void cancel(String why) {
            if (cancelledBy == null) {
                cancelledBy = why;
            }
            runner.cancel();
        }
    }

    /** An agent whose trial JVMs start with the runner's measuring flags. */
    public AgentLoop(AgentClient client, Registration registration, TrialLauncher launcher,
                     MetricsReader metricsReader, int pollWaitSeconds, Consumer<String> log) {
        this(client, registration, launcher, metricsReader, pollWaitSeconds, List.of(), log);
    }

    /** An agent whose trial JVMs start with {@code fixedJvmArgs}, from {@code launcher} as it is. */
    public AgentLoop(AgentClient client, Registration registration, TrialLauncher launcher,
                     MetricsReader metricsReader, int pollWaitSeconds, List<String> fixedJvmArgs,
                     Consumer<String> log) {
        this(client, registration, launcher, UnaryOperator.identity(), metricsReader, pollWaitSeconds, fixedJvmArgs,
                log);
    }

    /**
     * @param prepareEngineTrials makes {@code launcher} start the JVMs of engine trials fast (the jar extracted and
     *     archived once, {@link io.perflab.runner.experiment.FastStart}); asked once, when the first engine
     *     experiment is assigned, since a command experiment starts no trial JVM and an agent may run only those
     * @param pollWaitSeconds how long each poll waits for an experiment
     * @param fixedJvmArgs the fixed flags of this host's trial JVMs (as the service's {@code perflab.trials.jvm-args}
     *     are its built-in agent's); empty: the runner's measuring defaults
     * @param log where the agent says what it does, a line at a time
     */
    public AgentLoop(AgentClient client, Registration registration, TrialLauncher launcher,
                     UnaryOperator<TrialLauncher> prepareEngineTrials, MetricsReader metricsReader,
                     int pollWaitSeconds, List<String> fixedJvmArgs, Consumer<String> log) {
        this.fixedJvmArgs = List.copyOf(fixedJvmArgs);
        this.client = client;
        this.registration = registration;
        this.launcher = launcher;
        this.prepareEngineTrials = prepareEngineTrials;
        this.metricsReader = metricsReader;
        this.pollWaitSeconds = pollWaitSeconds;
        this.log = log;
    }

    /** The id of the current registration, -1 before the first. */
    public long agentId() {
        return agentId;
    }

    /**
     * Runs until {@link #stop()}, registering again whenever the service declares this agent lost.
     *
     * @throws AgentClient.Refused when the service refuses a registration (a wrong or revoked token, a bad label)
     */
    public void run() {
        try {
            runUntilStopped();
        } finally {
            ended.countDown();
        }
    }

    private void runUntilStopped() {
        while (!isStopped()) {
            // an agent the service declared lost is lost until it registers again: a registration that fails for a
            // while (a service restarting, a proxy's 502) is tried again until it is taken or the agent is stopped
            Registered registered = retrying("register with " + client.server(), () -> client.register(registration),
                    () -> false);
            if (registered == null) {
                return;
            }
            agentId = registered.agentId();
            lost.set(false);
            long interval = Math.max(10, Math.round(heartbeatSeconds(registered) * 1000));
            log.accept("registered as agent " + agentId + " with labels [" + HostLabels.of(registration.labels())
                    + "]; heartbeat every " + interval / 1000.0 + " s");
            ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread thread = new Thread(r, "perflab-agent-heartbeat");
                thread.setDaemon(true);
                return thread;
            });
            heartbeats.scheduleWithFixedDelay(this::heartbeat, interval, interval, TimeUnit.MILLISECONDS);
            try {
                pollAndRun();
            } finally {
                heartbeats.shutdownNow();
            }
            if (isStopped() && !lost.get()) {
                leave(heartbeats);
            }
        }
    }

    /**
     * Tells the service that this agent leaves, once its heartbeats have ended (one sent after the leave would be
     * refused): the service need not wait for the heartbeat timeout to end what it may still hold for this agent (an
     * experiment claimed by a poll whose answer the stop cut off). Best effort: a failure is logged.
     */
    private void leave(ExecutorService heartbeats) {
        try {
            heartbeats.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            client.leave(agentId);
            log.accept("agent " + agentId + " left " + client.server());
        } catch (IOException e) {
            log.accept("cannot tell " + client.server() + " that agent " + agentId + " leaves ("
                    + AgentClient.describe(e) + "); the service finds it lost when its heartbeat times out");
        } catch (AgentClient.Refused e) {
            // a service that no longer knows this agent as live (it declared it lost) has nothing of it left to end
            log.accept(client.server() + " refused agent " + agentId + "'s leave: " + e.getMessage());
        } catch (RuntimeException e) {
            log.accept("cannot tell " + client.server() + " that agent " + agentId + " leaves: " + e.getMessage());
        }
    }

    /**
     * How often to heartbeat: as the service asks, but at least three times within the time after which it declares
     * an agent lost, whatever it asks (a service misconfigured to ask for heartbeats further apart than that would
     * declare every agent lost while it runs).
     */
    static double heartbeatSeconds(Registered registered) {
        double timeout = registered.heartbeatTimeoutSeconds();
        return timeout > 0 && Double.isFinite(timeout) ? Math.min(registered.heartbeatSeconds(), timeout / 3)
                : registered.heartbeatSeconds();
    }

    /**
     * Stops: cancels the running trial, hands its experiment back as INTERRUPTED, cuts a waiting poll short, and makes
     * {@link #run} return once it told the service that the agent leaves.
     */
    public void stop() {
        stopped.countDown();
        Running current = running;
        if (current != null) {
            current.cancel("the agent was stopped");
        }
        synchronized (pollGuard) {
            if (polling != null) {
                pollCutShort = true;
                polling.interrupt();
            }
        }
    }

    /**
     * Waits at most {@code timeout} for {@link #run} to return after {@link #stop}: a shutdown hook must, or the JVM
     * halts before the cut-short experiment is handed back. True if it returned.
     */
    public boolean awaitEnd(Duration timeout) {
        try {
            return ended.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private boolean isStopped() {
        return stopped.getCount() == 0;
    }

    private void pollAndRun() {
        while (!isStopped() && !lost.get()) {
            Optional<Assignment> assignment;
            try {
                assignment = poll();
            } catch (AgentClient.UnreadableAssignment e) {
                // polling again would be refused (this agent holds it) and the next agent would fare the same
                String why = "this agent cannot read its assignment (is it of the service's version?): "
                        + e.getMessage();
                log.accept("experiment " + e.experimentId() + " refused: " + why);
                postFinish(e.experimentId(), "FAILED", why);
                continue;
            } catch (IOException e) {
                if (isStopped()) {
                    return; // the stop cut the poll short
                }
                log.accept("cannot poll " + client.server() + ": " + e.getMessage());
                pause(LAST_RETRY);
                continue;
            } catch (AgentClient.Refused e) {
                if (e.status() == 409 || e.status() == 404) {
                    log.accept("the service dropped this agent (" + e.getMessage() + "); registering again");
                    lost.set(true);
                    return;
                }
                throw e;
            }
            assignment.ifPresent(this::runExperiment);
        }
    }

    /**
     * Polls once, unless stopped; a {@link #stop()} meanwhile interrupts the wait. An assignment that came in
     * nonetheless is run as any other: the stop hands it back at once.
     */
    private Optional<Assignment> poll() throws IOException {
        synchronized (pollGuard) {
            if (isStopped()) {
                return Optional.empty();
            }
            polling = Thread.currentThread();
        }
        try {
            return client.poll(agentId, pollWaitSeconds);
        } finally {
            synchronized (pollGuard) {
                polling = null;
                if (pollCutShort) {
                    pollCutShort = false;
                    Thread.interrupted(); // the stop's interrupt, whether or not the poll saw it
                }
            }
        }
    }

    private void heartbeat() {
        if (lost.get()) {
            return; // the service refused this registration: nothing to heartbeat until the agent registers again
        }
        try {
            HeartbeatAnswer answer = client.heartbeat(agentId);
            Running current = running;
            if (answer.cancel() && current != null) {
                current.cancel("a user cancelled it");
            }
        } catch (IOException e) {
            log.accept("heartbeat failed: " + e.getMessage());
        } catch (AgentClient.Refused e) {
            // said once: the heartbeats after it are not sent (a revoked token, or an agent declared lost, is
            // refused every one of them until the agent registers again or ends)
            if (lost.getAndSet(true)) {
                return;
            }
            Running current = running;
            log.accept("the service refused the heartbeat (" + e.getMessage() + "); " + (current == null
                    ? "this agent holds no experiment" : "dropping experiment " + current.experimentId));
            if (current != null) {
                current.cancel("the service refused this agent's heartbeat");
            }
        } catch (RuntimeException e) {
            // a scheduled task that throws never runs again: the service would declare this agent lost
            log.accept("heartbeat failed: " + e);
        }
    }

    /**
     * Runs an assigned experiment's pending trials, posting each, then its end. An agent started without
     * {@code --commands} runs no shell command, whatever the service assigns it: it posts such an experiment's end
     * as FAILED at once.
     */
    private void runExperiment(Assignment assignment) {
        long experimentId = assignment.experimentId();
        if (assignment.runsCommands() && !registration.runsCommands()) {
            log.accept("experiment " + experimentId + " '" + assignment.name() + "' refused: " + RUNS_NO_COMMANDS);
            postFinish(experimentId, "FAILED", RUNS_NO_COMMANDS);
            return;
        }
        // both variants of a plan are commands or both engine configurations
        TrialLauncher trials = assignment.runsCommands() ? launcher : engineTrialLauncher();
        Running current = new Running(experimentId, new ExperimentRunner(trials, metricsReader));
        running = current;
        if (isStopped()) {
            // stopped while the launcher was prepared, when there was no run to cancel: hand it back unrun
            current.cancel("the agent was stopped");
        }
        String outcome;
        String message;
        try {
            ExperimentPlan plan = fixedJvmArgs.isEmpty() ? assignment.toPlan()
                    : assignment.toPlan().withJvmArgs(fixedJvmArgs);
            ExperimentOutcome.Stop stop;
            if (plan.design().paired()) {
                log.accept("experiment " + experimentId + " '" + assignment.name() + "': running "
                        + assignment.pendingPairs().size() + " pairs");
                // the service decides after each posted pair whether the rule stops it, from the looks it stores
                PairStoppingRule byService = pairs -> current.stoppedByRule == null ? PairStoppingRule.Decision.CONTINUE
                        : PairStoppingRule.Decision.stop(current.stoppedByRule);
                PairedOutcome result = current.runner.runPairs(plan, assignment.pendingPairs(), List.of(),
                        pair -> {
                            if (pair.status() != TrialStatus.CANCELLED) {
                                postPair(current, pair);
                            }
                        }, byService);
                if (result.stop() == PairedOutcome.Stop.STOPPED_BY_RULE) {
                    log.accept("experiment " + experimentId + " stopped by its rule: " + result.message());
                }
                // a stop by the rule is a completed experiment; the service stored its reason
                message = result.message().isEmpty() || result.stop() == PairedOutcome.Stop.STOPPED_BY_RULE ? null
                        : result.message();
                stop = switch (result.stop()) {
                    case COMPLETED, STOPPED_BY_RULE -> ExperimentOutcome.Stop.COMPLETED;
                    case TOO_MANY_FAILURES -> ExperimentOutcome.Stop.TOO_MANY_FAILURES;
                    case CANCELLED -> ExperimentOutcome.Stop.CANCELLED;
                };
            } else {
                log.accept("experiment " + experimentId + " '" + assignment.name() + "': running "
                        + assignment.pendingOrdinals().size() + " trials");
                ExperimentOutcome result = current.runner.run(plan, assignment.pendingOrdinals(),
                        new TrialListener() {
                            @Override
                            public void trialStarted(PlannedTrial trial) {
                                // the service learns of a trial when it ends
                            }

                            @Override
                            public void trialFinished(TrialResult trial) {
                                post(current, trial);
                            }
                        });
                message = result.message().isEmpty() ? null : result.message();
                stop = result.stop();
            }
            outcome = switch (stop) {
                case COMPLETED -> "COMPLETED";
                case TOO_MANY_FAILURES -> "FAILED";
                case CANCELLED -> "a user cancelled it".equals(current.cancelledBy) ? "CANCELLED" : "INTERRUPTED";
            };
            if ("INTERRUPTED".equals(outcome)) {
                message = current.cancelledBy;
                if (current.cancelledBy != null && current.cancelledBy.startsWith(REFUSED_TRIAL)) {
                    outcome = "FAILED"; // another agent would post the same trial and be refused the same way
                }
            }
        } catch (RuntimeException e) {
            outcome = "FAILED";
            message = "the agent could not run it: " + e.getMessage();
        } finally {
            running = null;
        }
        if (lost.get() || "the service no longer assigns it to this agent".equals(current.cancelledBy)) {
            log.accept("experiment " + experimentId + " dropped: " + current.cancelledBy);
            return;
        }
        postFinish(experimentId, outcome, message);
    }

    /** The launcher of engine trials, prepared the first time one is due. */
    private TrialLauncher engineTrialLauncher() {
        if (engineTrialLauncher == null) {
            engineTrialLauncher = prepareEngineTrials.apply(launcher);
        }
        return engineTrialLauncher;
    }

    /** Posts how the run of an experiment ended, retrying while the service cannot be reached. */
    private void postFinish(long experimentId, String outcome, String message) {
        Finish finish = Finish.of(outcome, message);
        try {
            Boolean sent = retrying("post the end of experiment " + experimentId, () -> {
                client.finish(agentId, experimentId, finish);
                return Boolean.TRUE;
            }, lost::get);
            log.accept(sent != null
                    ? "experiment " + experimentId + " " + outcome + (message == null ? "" : ": " + message)
                    : "experiment " + experimentId + " " + outcome + ", but its end could not be posted before the "
                            + "agent stopped; the service finds it by its missing heartbeat");
        } catch (AgentClient.Refused e) {
            log.accept("the service refused the end of experiment " + experimentId + ": " + e.getMessage());
        }
    }

    /**
     * Posts a finished trial, retrying while the service cannot be reached or store it, until the run is cancelled; a
     * refusal cancels the run.
     */
    private void post(Running current, TrialResult trial) {
        String what = "trial " + trial.ordinal() + " of experiment " + current.experimentId;
        try {
            TrialAnswer answer = retrying("post " + what,
                    () -> client.postTrial(agentId, current.experimentId, PostedTrial.of(trial)), cancelled(current));
            notPosted(what, answer, current);
            if (answer != null && answer.cancel()) {
                current.cancel("a user cancelled it");
            }
        } catch (AgentClient.Refused e) {
            log.accept("the service refused trial " + trial.ordinal() + ": " + e.getMessage());
            current.cancel(e.status() == 409 ? "the service no longer assigns it to this agent"
                    : REFUSED_TRIAL + e.getMessage());
        }
    }

    /** Posts a finished pair whole, as {@link #post} posts a trial, and heeds the service's stop. */
    private void postPair(Running current, PairResult pair) {
        String what = "pair " + pair.index() + " of experiment " + current.experimentId;
        try {
            PairAnswer answer = retrying("post " + what,
                    () -> client.postPair(agentId, current.experimentId, PostedPair.of(pair)), cancelled(current));
            notPosted(what, answer, current);
            if (answer != null && answer.cancel()) {
                current.cancel("a user cancelled it");
            } else if (answer != null && answer.stop()) {
                current.stoppedByRule = answer.stopReason() == null ? "its stopping rule stopped it"
                        : answer.stopReason();
            }
        } catch (AgentClient.Refused e) {
            log.accept("the service refused pair " + pair.index() + ": " + e.getMessage());
            current.cancel(e.status() == 409 ? "the service no longer assigns it to this agent"
                    : REFUSED_TRIAL + e.getMessage());
        }
    }

    /**
     * Whether posting more of {@code current} is pointless: the agent was declared lost, or the run was cancelled (a
     * user's cancel, a refusal). A post that the service keeps failing (a 500 for a trial it cannot store) must not
     * hold the run for good, its heartbeats keeping the experiment RUNNING, once a user has cancelled it.
     */
    private BooleanSupplier cancelled(Running current) {
        return () -> lost.get() || current.cancelledBy != null;
    }

    /** Says that {@code what} was given up on, when it was ({@code answer} is null) while the agent runs on. */
    private void notPosted(String what, Object answer, Running current) {
        if (answer == null && !isStopped() && !lost.get()) {
            log.accept(what + " is not posted: " + current.cancelledBy);
        }
    }

    /**
     * Sends {@code call} until it is answered, waiting longer after each failure; null once stopped, or once
     * {@code pointless} says a further try is.
     */
    private <T> T retrying(String what, Call<T> call, BooleanSupplier pointless) {
        Duration wait = FIRST_RETRY;
        while (true) {
            try {
                return call.send();
            } catch (IOException e) {
                log.accept("cannot " + what + ": " + e.getMessage() + "; trying again in " + wait.toMillis() + " ms");
            }
            if (!pause(wait) || pointless.getAsBoolean()) {
                return null;
            }
            wait = wait.multipliedBy(2).compareTo(LAST_RETRY) > 0 ? LAST_RETRY : wait.multipliedBy(2);
        }
    }

    /** Waits {@code duration} unless stopped first; false if stopped. */
    private boolean pause(Duration duration) {
        try {
            return !stopped.await(duration.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
