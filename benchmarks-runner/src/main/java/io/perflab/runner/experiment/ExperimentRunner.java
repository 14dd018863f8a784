package io.perflab.runner.experiment;

import io.perflab.runner.trial.TrialProtocol;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Runs an experiment's trials one at a time, each in a fresh process, and tells a {@link TrialListener} about
 * each as it finishes.
 *
 * <p>Engine trials run {@code java <plan flags> <variant flags> <entry> <trial arguments>} and read the
 * {@link TrialProtocol} line from its output. Command trials run {@code /bin/sh -c command} and meter it with
 * {@code getrusage(RUSAGE_CHILDREN)} deltas, so command trials must not overlap with other children of this
 * JVM. A trial that crashes, prints no result or outlives the plan's timeout is killed with its process tree and
 * recorded as failed with the tail of its error output; the experiment goes on until more than
 * {@code maxFailures} trials have failed.
 *
 * <p>{@link #cancel()} may be called from any thread (a shutdown hook, a web request): it kills the running
 * trial and stops the experiment. A runner runs one experiment; make a new one for the next.
 *
 * <pre>{@code
 * ExperimentPlan plan = ExperimentPlan.of(
 *         EngineVariant.of(Map.of("completion", "monitor"), workload),
 *         EngineVariant.of(Map.of("completion", "notification"), workload), 20);
 * ExperimentRunner runner = new ExperimentRunner(TrialLauncher.ofThisJvm());
 * ExperimentOutcome outcome = runner.run(plan, result -> store.save(experimentId, result));
 * }</pre>
 */
public final class ExperimentRunner {

    private final TrialLauncher launcher;
    private final Clock clock;
    private final LongSupplier nanoClock;
    private final TrialProcesses processes = new TrialProcesses();
    private final CommandTrial commands;

    /** A runner whose command trials read no output ({@link MetricsReader#NONE}). */
    public ExperimentRunner(TrialLauncher launcher) {
        this(launcher, MetricsReader.NONE);
    }

    /** A runner whose command trials read what they print with {@code reader}. */
    public ExperimentRunner(TrialLauncher launcher, MetricsReader reader) {
        this(launcher, Clock.systemUTC(), System::nanoTime, reader);
    }

    public ExperimentRunner(TrialLauncher launcher, Clock clock, LongSupplier nanoClock) {
        this(launcher, clock, nanoClock, MetricsReader.NONE);
    }

    /**
     * @param launcher how engine trials start their JVM
     * @param clock the source of trial start and end instants
     * @param nanoClock the monotonic clock of command trials' wall time
     * @param reader reads the metrics of command variants that name an output format
     */
    public ExperimentRunner(TrialLauncher launcher, Clock clock, LongSupplier nanoClock, MetricsReader reader) {
        this.launcher = launcher;
        this.clock = clock;
        this.nanoClock = nanoClock;
        this.commands = new CommandTrial(processes, clock, nanoClock, reader);
    }

    /** Runs every trial of {@code plan}, a plan of the fresh design. */
    public ExperimentOutcome run(ExperimentPlan plan, TrialListener listener) {
        return run(plan, plan.trials().stream().map(PlannedTrial::ordinal).toList(), listener);
    }

    /**
     * Runs the trials of {@code plan} whose ordinals are in {@code ordinals}, in plan order: after a crash, the
     * ordinals not yet stored.
     *
     * @throws IllegalArgumentException for an ordinal outside the plan, or a plan of a paired design
     */
    public ExperimentOutcome run(ExperimentPlan plan, Collection<Integer> ordinals, TrialListener listener) {
        if (plan.design().paired()) {
            throw new IllegalArgumentException("a plan of the " + plan.design().label() + " design runs pairs: "
                    + "runPairs, not run");
        }
        List<PlannedTrial> all = plan.trials();
        Set<Integer> wanted = new TreeSet<>(ordinals);
        for (int ordinal : wanted) {
            if (ordinal < 0 || ordinal >= all.size()) {
                throw new IllegalArgumentException("trial " + ordinal + " is not in the plan (0.." + (all.size() - 1)
                        + ")");
            }
        }
        List<Scheduled> scheduled = new ArrayList<>();
        for (PlannedTrial trial : all) {
            if (wanted.contains(trial.ordinal())) {
                scheduled.add(new Scheduled(() -> listener.trialStarted(trial), () -> runTrial(plan, trial)));
            }
        }
        return runAll(scheduled, all.size(), plan.cooldown(), plan.maxFailures(), listener::trialFinished);
    }

    /**
     * Runs every trial of a plan of several engine variants, round by round, telling {@code finished} about each
     * trial as it ends. Failures, timeouts and cancellation are handled as for {@link #run(ExperimentPlan,
     * TrialListener)}.
     */
    public ExperimentOutcome run(MultiVariantPlan plan, Consumer<TrialResult> finished) {
        List<Scheduled> scheduled = new ArrayList<>();
        for (MultiVariantPlan.Trial trial : plan.trials()) {
            EngineVariant variant = plan.variants().get(trial.variant());
            List<String> command = launcher.command(plan.trialJvmArgs(), variant);
            scheduled.add(new Scheduled(() -> { }, () -> runEngineTrial(command, trial.variant(), trial.ordinal(),
                    plan.trialTimeout())));
        }
        return runAll(scheduled, scheduled.size(), plan.cooldown(), plan.maxFailures(), finished);
    }

    /**
     * Runs every pair of a paired plan ({@link ExperimentDesign#DUET} or {@link ExperimentDesign#ALTERNATING}),
     * asking {@code rule} after each whether to go on.
     *
     * @throws IllegalArgumentException for a fresh plan, or a duet on a host (or {@code --cpus}) with fewer than two
     *     CPUs or without {@code taskset}
     */
    public PairedOutcome runPairs(ExperimentPlan plan, PairListener listener, PairStoppingRule rule) {
        List<Integer> all = new ArrayList<>();
        for (int pair = 0; pair < plan.pairs(); pair++) {
            all.add(pair);
        }
        return runPairs(plan, all, List.of(), listener, rule);
    }

    /**
     * Runs the pairs of a paired plan whose indexes are in {@code pairs}, in order: to resume an experiment after a
     * crash, the pairs not yet stored whole. Pairs are numbered from 0; each keeps its placement (CPU halves, start
     * order) whenever it runs.
     *
     * @param earlier the pairs stored before, which {@code rule} sees before the new ones
     * @throws IllegalArgumentException for a pair outside the plan, and as {@link #runPairs(ExperimentPlan,
     *     PairListener, PairStoppingRule)}
     */
    public PairedOutcome runPairs(ExperimentPlan plan, Collection<Integer> pairs, List<PairResult> earlier,
                                  PairListener listener, PairStoppingRule rule) {
        return new PairedRuns(launcher, processes, clock, nanoClock, commands).run(plan, pairs, earlier, listener,
                rule);
    }

    /** One trial to run: what to tell before it starts, and how to run it. */
    private record Scheduled(Runnable onStart, Supplier<TrialResult> trial) {
    }

    /**
     * Runs {@code trials}, the ones of a plan of {@code planned} that are not stored yet: a cancel says how many of
     * the plan's trials are stored then, those before this run's and this run's that ended (the one a cancel cut
     * short is no result, and is not kept), as the experiment's progress counts them.
     */
    private ExperimentOutcome runAll(List<Scheduled> trials, int planned, Duration cooldown, int maxFailures,
                                     Consumer<TrialResult> finished) {
        List<TrialResult> results = new ArrayList<>();
        int failures = 0;
        boolean first = true;
        for (Scheduled trial : trials) {
            if (!first && !cooldown.isZero() && awaitCancel(cooldown.toNanos())) {
                break;
            }
            if (isCancelled()) {
                break;
            }
            first = false;
            trial.onStart().run();
            TrialResult result = trial.trial().get();
            results.add(result);
            finished.accept(result);
            if (result.status() == TrialStatus.CANCELLED) {
                break;
            }
            if (result.status() == TrialStatus.FAILED || result.status() == TrialStatus.TIMED_OUT) {
                failures++;
                if (failures > maxFailures) {
                    return new ExperimentOutcome(results, ExperimentOutcome.Stop.TOO_MANY_FAILURES,
                            "stopped after " + failures + " failed trials (more than --max-failures "
                                    + maxFailures + "); last failure, trial " + result.ordinal() + " ("
                                    + result.variant() + "): " + TrialOutput.firstLine(result.error()));
                }
            }
        }
        if (isCancelled()) {
            long ended = results.stream().filter(r -> r.status() != TrialStatus.CANCELLED).count();
            return new ExperimentOutcome(results, ExperimentOutcome.Stop.CANCELLED,
                    "cancelled after " + (planned - trials.size() + ended) + " of " + planned + " trials");
        }
        return new ExperimentOutcome(results, ExperimentOutcome.Stop.COMPLETED, "");
    }

    /**
     * Stops the experiment: kills the running trial's process tree (both JVMs of a running pair) and starts no
     * other. Idempotent.
     */
    public void cancel() {
        processes.cancel();
    }

    public boolean isCancelled() {
        return processes.isCancelled();
    }

    private boolean awaitCancel(long nanos) {
        return processes.awaitCancel(nanos);
    }

    private TrialResult runTrial(ExperimentPlan plan, PlannedTrial trial) {
        Variant variant = plan.variant(trial.variant());
        if (variant instanceof EngineVariant engine) {
            return runEngineTrial(launcher.command(plan, engine), trial.variant().label(), trial.ordinal(),
                    plan.trialTimeout());
        }
        return commands.run((CommandVariant) variant, trial.variant().label(), trial.ordinal(), plan.trialTimeout());
    }

    private TrialResult runEngineTrial(List<String> command, String variantLabel, int ordinal, Duration timeout) {
        AtomicReference<String> resultLine = new AtomicReference<>();
        Instant start = clock.instant();
        Process process;
        try {
            process = new ProcessBuilder(command).redirectInput(CommandTrial.NO_INPUT).start();
        } catch (IOException e) {
            return CommandTrial.notStarted(variantLabel, ordinal, start, clock, "could not start " + command.get(0)
                    + ": " + e.getMessage());
        }
        OutputTail stdout = OutputTail.start(process.getInputStream(), "trial-" + ordinal + "-stdout",
                line -> {
                    if (line.startsWith(TrialProtocol.PREFIX)) {
                        resultLine.set(line);
                        return true;
                    }
                    return false;
                });
        OutputTail stderr = OutputTail.start(process.getErrorStream(), "trial-" + ordinal + "-stderr");
        TrialProcesses.Ending ending = processes.await(process, timeout);
        TrialOutput.drain(stdout, stderr);
        Instant end = clock.instant();
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("command", String.join(" ", command));
        String tail = TrialOutput.tail(stderr, stdout);
        if (ending != TrialProcesses.Ending.EXITED) {
            return new TrialResult(variantLabel, ordinal, ending.status, start, end, process.pid(),
                    Map.of(), environment, ending.describe(timeout) + TrialOutput.suffix(tail));
        }
        int exit = process.exitValue();
        String line = resultLine.get();
        if (line == null) {
            return new TrialResult(variantLabel, ordinal, TrialStatus.FAILED, start, end, process.pid(),
                    Map.of(), environment, "trial JVM exited with status " + exit + " without a result"
                    + TrialOutput.suffix(tail));
        }
        TrialProtocol.Report report;
        try {
            report = TrialProtocol.decode(line).orElseThrow();
        } catch (IllegalArgumentException e) {
            return new TrialResult(variantLabel, ordinal, TrialStatus.FAILED, start, end, process.pid(),
                    Map.of(), environment, e.getMessage() + TrialOutput.suffix(tail));
        }
        environment.putAll(report.environment());
        if (exit != 0) {
            return new TrialResult(variantLabel, ordinal, TrialStatus.FAILED, start, end, process.pid(),
                    report.metrics(), environment, "trial JVM exited with status " + exit + TrialOutput.suffix(tail));
        }
        return new TrialResult(variantLabel, ordinal, TrialStatus.OK, start, end, process.pid(),
                report.metrics(), environment, null);
    }
}
