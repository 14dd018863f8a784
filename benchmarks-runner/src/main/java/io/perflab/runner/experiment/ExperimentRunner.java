package io.perflab.runner.experiment;

import io.perflab.runner.metering.ResourceUsage;
import io.perflab.runner.trial.HostEnvironment;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.TrialProtocol;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.io.File;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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

    private static final long OUTPUT_DRAIN_SECONDS = 2;
    private static final ProcessBuilder.Redirect NO_INPUT = ProcessBuilder.Redirect.from(new File("/dev/null"));

    private final TrialLauncher launcher;
    private final Clock clock;
    private final LongSupplier nanoClock;
    private final CountDownLatch cancelled = new CountDownLatch(1);
    private final AtomicReference<Process> running = new AtomicReference<>();

    public ExperimentRunner(TrialLauncher launcher) {
        this(launcher, Clock.systemUTC(), System::nanoTime);
    }

    /**
     * @param launcher how engine trials start their JVM
     * @param clock the source of trial start and end instants
     * @param nanoClock the monotonic clock of command trials' wall time
     */
    public ExperimentRunner(TrialLauncher launcher, Clock clock, LongSupplier nanoClock) {
        this.launcher = launcher;
        this.clock = clock;
        this.nanoClock = nanoClock;
    }

    /** Runs every trial of {@code plan}. */
    public ExperimentOutcome run(ExperimentPlan plan, TrialListener listener) {
        return run(plan, plan.trials().stream().map(PlannedTrial::ordinal).toList(), listener);
    }

    /**
     * Runs the trials of {@code plan} whose ordinals are in {@code ordinals}, in plan order: after a crash, the
     * ordinals not yet stored.
     *
     * @throws IllegalArgumentException for an ordinal outside the plan
     */
    public ExperimentOutcome run(ExperimentPlan plan, Collection<Integer> ordinals, TrialListener listener) {
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
        return runAll(scheduled, plan.cooldown(), plan.maxFailures(), listener::trialFinished);
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
            scheduled.add(new Scheduled(() -> { }, () -> runEngineTrial(launcher.command(plan.jvmArgs(), variant),
                    trial.variant(), trial.ordinal(), plan.trialTimeout())));
        }
        return runAll(scheduled, plan.cooldown(), plan.maxFailures(), finished);
    }

    /** One trial to run: what to tell before it starts, and how to run it. */
    private record Scheduled(Runnable onStart, Supplier<TrialResult> trial) {
    }

    private ExperimentOutcome runAll(List<Scheduled> trials, Duration cooldown, int maxFailures,
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
                                    + result.variant() + "): " + firstLine(result.error()));
                }
            }
        }
        if (isCancelled()) {
            return new ExperimentOutcome(results, ExperimentOutcome.Stop.CANCELLED,
                    "cancelled after " + results.size() + " of " + trials.size() + " trials");
        }
        return new ExperimentOutcome(results, ExperimentOutcome.Stop.COMPLETED, "");
    }

    /** Stops the experiment: kills the running trial's process tree and starts no other. Idempotent. */
    public void cancel() {
        cancelled.countDown();
        Process process = running.get();
        if (process != null) {
            ProcessTree.kill(process.toHandle());
        }
    }

    public boolean isCancelled() {
        return cancelled.getCount() == 0;
    }

    private boolean awaitCancel(long nanos) {
        try {
            return cancelled.await(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel();
            return true;
        }
    }

    private TrialResult runTrial(ExperimentPlan plan, PlannedTrial trial) {
        Variant variant = plan.variant(trial.variant());
        if (variant instanceof EngineVariant engine) {
            return runEngineTrial(launcher.command(plan, engine), trial.variant().label(), trial.ordinal(),
                    plan.trialTimeout());
        }
        return runCommandTrial(plan, trial, (CommandVariant) variant);
    }

    private TrialResult runEngineTrial(List<String> command, String variantLabel, int ordinal, Duration timeout) {
        AtomicReference<String> resultLine = new AtomicReference<>();
        Instant start = clock.instant();
        Process process;
        try {
            process = new ProcessBuilder(command).redirectInput(NO_INPUT).start();
        } catch (IOException e) {
            return notStarted(variantLabel, ordinal, start, "could not start " + command.get(0) + ": " + e.getMessage());
        }
        OutputTail stdout = OutputTail.start(process.getInputStream(), "trial-" + ordinal + "-stdout",
                line -> {
                    if (line.startsWith(TrialProtocol.PREFIX)) {
                        resultLine.set(line);
                        return true;
                    }
                    return false;
                });
        OutputTail stderr = OutputTail.start(process.getErrorStream(), "trial-" + ordinal + "-stderr",
                line -> false);
        Ending ending = await(process, timeout);
        drain(stdout, stderr);
        Instant end = clock.instant();
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("command", String.join(" ", command));
        String tail = tail(stderr, stdout);
        if (ending != Ending.EXITED) {
            return new TrialResult(variantLabel, ordinal, ending.status, start, end, process.pid(),
                    Map.of(), environment, ending.describe(timeout) + tailSuffix(tail));
        }
        int exit = process.exitValue();
        String line = resultLine.get();
        if (line == null) {
            return new TrialResult(variantLabel, ordinal, TrialStatus.FAILED, start, end, process.pid(),
                    Map.of(), environment, "trial JVM exited with status " + exit + " without a result"
                    + tailSuffix(tail));
        }
        TrialProtocol.Report report;
        try {
            report = TrialProtocol.decode(line).orElseThrow();
        } catch (IllegalArgumentException e) {
            return new TrialResult(variantLabel, ordinal, TrialStatus.FAILED, start, end, process.pid(),
                    Map.of(), environment, e.getMessage() + tailSuffix(tail));
        }
        environment.putAll(report.environment());
        if (exit != 0) {
            return new TrialResult(variantLabel, ordinal, TrialStatus.FAILED, start, end, process.pid(),
                    report.metrics(), environment, "trial JVM exited with status " + exit + tailSuffix(tail));
        }
        return new TrialResult(variantLabel, ordinal, TrialStatus.OK, start, end, process.pid(),
                report.metrics(), environment, null);
    }

    private TrialResult runCommandTrial(ExperimentPlan plan, PlannedTrial trial, CommandVariant variant) {
        List<String> command = List.of("/bin/sh", "-c", variant.command());
        Map<String, String> environment = new LinkedHashMap<>(HostEnvironment.capture());
        environment.remove("jvm_flags");
        environment.remove("jvm_version");
        environment.put("command", variant.command());
        Instant start = clock.instant();
        ResourceUsage before = ResourceUsage.children();
        long startNanos = nanoClock.getAsLong();
        Process process;
        try {
            process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(NO_INPUT).start();
        } catch (IOException e) {
            return notStarted(trial.variant().label(), trial.ordinal(), start, "could not start /bin/sh: " + e.getMessage());
        }
        OutputTail stderr = OutputTail.start(process.getErrorStream(), "trial-" + trial.ordinal() + "-stderr",
                line -> false);
        Ending ending = await(process, plan.trialTimeout());
        long elapsedNanos = nanoClock.getAsLong() - startNanos;
        ResourceUsage usage = ResourceUsage.children().minus(before);
        drain(stderr);
        Instant end = clock.instant();
        String variantLabel = trial.variant().label();
        String tail = stderr.text();
        if (ending != Ending.EXITED) {
            return new TrialResult(variantLabel, trial.ordinal(), ending.status, start, end, process.pid(),
                    Map.of(), environment, ending.describe(plan.trialTimeout()) + tailSuffix(tail));
        }
        int exit = process.exitValue();
        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put(MetricKeys.WALL_MS, elapsedNanos / 1e6);
        metrics.put(MetricKeys.USER_CPU_MS, usage.userMicros() / 1e3);
        metrics.put(MetricKeys.SYS_CPU_MS, usage.systemMicros() / 1e3);
        metrics.put(MetricKeys.CPU_MS, usage.cpuMicros() / 1e3);
        metrics.put(MetricKeys.CTX_SWITCHES, (double) usage.contextSwitches());
        metrics.put(MetricKeys.VOLUNTARY_CTX_SWITCHES, (double) usage.voluntaryContextSwitches());
        metrics.put(MetricKeys.INVOLUNTARY_CTX_SWITCHES, (double) usage.involuntaryContextSwitches());
        metrics.put(MetricKeys.EXIT_STATUS, (double) exit);
        TrialStatus status = exit == 0 ? TrialStatus.OK : TrialStatus.FAILED;
        String error = exit == 0 ? null : "command exited with status " + exit + tailSuffix(tail);
        return new TrialResult(variantLabel, trial.ordinal(), status, start, end, process.pid(), metrics,
                environment, error);
    }

    private TrialResult notStarted(String variantLabel, int ordinal, Instant start, String error) {
        return new TrialResult(variantLabel, ordinal, TrialStatus.FAILED, start,
                clock.instant(), -1, Map.of(), Map.of(), error);
    }

    /** Waits for the process to end, killing its tree on timeout or cancellation. */
    private Ending await(Process process, Duration timeout) {
        running.set(process);
        try {
            if (isCancelled()) {
                ProcessTree.kill(process.toHandle());
            }
            boolean exited = process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
            if (!exited) {
                ProcessTree.kill(process.toHandle());
                process.waitFor();
                return isCancelled() ? Ending.CANCELLED : Ending.TIMED_OUT;
            }
            return isCancelled() ? Ending.CANCELLED : Ending.EXITED;
        } catch (InterruptedException e) {
            ProcessTree.kill(process.toHandle());
            cancelled.countDown();
            Thread.currentThread().interrupt();
            return Ending.CANCELLED;
        } finally {
            running.set(null);
        }
    }

    private static void drain(OutputTail... tails) {
        try {
            for (OutputTail tail : tails) {
                tail.awaitEnd(OUTPUT_DRAIN_SECONDS, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String tail(OutputTail stderr, OutputTail stdout) {
        String err = stderr.text();
        return err.isEmpty() ? stdout.text() : err;
    }

    private static String tailSuffix(String tail) {
        return tail.isEmpty() ? "" : "\n--- last output ---\n" + tail;
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "";
        }
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }

    private enum Ending {
        EXITED(TrialStatus.OK),
        TIMED_OUT(TrialStatus.TIMED_OUT),
        CANCELLED(TrialStatus.CANCELLED);

        final TrialStatus status;

        Ending(TrialStatus status) {
            this.status = status;
        }

        String describe(Duration timeout) {
            return switch (this) {
                case TIMED_OUT -> "killed after the trial timeout of " + timeout.toMillis() / 1000.0
                        + " s (--trial-timeout)";
                case CANCELLED -> "killed: the experiment was cancelled";
                case EXITED -> "exited";
            };
        }
    }
}
