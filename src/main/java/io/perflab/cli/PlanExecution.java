package io.perflab.cli;

import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentJson;
import io.perflab.runner.experiment.ExperimentOutcome;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.ExperimentRunner;
import io.perflab.runner.experiment.MultiVariantPlan;
import io.perflab.runner.experiment.PairListener;
import io.perflab.runner.experiment.PairPlacement;
import io.perflab.runner.experiment.PairResult;
import io.perflab.runner.experiment.PairStoppingRule;
import io.perflab.runner.experiment.PairedOutcome;
import io.perflab.runner.experiment.PlannedTrial;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.runner.experiment.TrialListener;
import io.perflab.runner.trial.TrialResult;
import io.perflab.upload.OutputMetricsReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Runs an experiment plan for a command: the load warning, progress, the experiment file rewritten after each
 * trial, Ctrl-C (the running trial is killed, what finished is kept) and the list of failed trials.
 *
 * @param name the command's name, for messages
 */
record PlanExecution(String name, PrintWriter out, PrintWriter err, Path outFile) {

    /** Exit status when the experiment stopped because too many trials failed. */
    static final int EXIT_TOO_MANY_FAILURES = 1;
    /** Exit status after Ctrl-C, as shells report SIGINT. */
    static final int EXIT_CANCELLED = 130;
    /** Exit status of an experiment whose {@code --out} file missed the last trials: its last write failed. */
    static final int EXIT_OUT_NOT_WRITTEN = 74;

    /**
     * How a plan ended and every trial that finished, in the order they finished.
     *
     * @param outFileComplete false when the last write of the {@code --out} file failed, so that it misses trials
     */
    record Finished(ExperimentOutcome outcome, List<TrialResult> results, boolean outFileComplete) {

        int exitStatus() {
            return switch (outcome.stop()) {
                case COMPLETED -> outFileComplete ? 0 : EXIT_OUT_NOT_WRITTEN;
                case TOO_MANY_FAILURES -> EXIT_TOO_MANY_FAILURES;
                case CANCELLED -> EXIT_CANCELLED;
            };
        }
    }

    /**
     * Runs every trial of {@code plan}, then {@code report}: after Ctrl-C too, since the JVM waits for it before
     * it exits.
     */
    Finished run(ExperimentPlan plan, TrialLauncher launcher, Consumer<Finished> report) {
        AbProgress progress = new AbProgress(out, System.console() != null, plan);
        String header = plan.trials().size() + " trials (" + plan.runsPerVariant() + " per variant, "
                + plan.order().label() + ")";
        return run(header, launcher, progress, (runner, finished) -> runner.run(plan, new TrialListener() {
            @Override
            public void trialStarted(PlannedTrial trial) {
                progress.started(trial);
            }

            @Override
            public void trialFinished(TrialResult result) {
                finished.accept(result);
            }
        }), results -> ExperimentJson.write(outFile, plan, results), report);
    }

    /** Runs every trial of a plan of several variants, round-robin, then {@code report}. */
    Finished run(MultiVariantPlan plan, TrialLauncher launcher, Consumer<Finished> report) {
        AbProgress progress = new AbProgress(out, System.console() != null, plan.trials().size(),
                AbProgress.firstGuess(plan.variants().values().iterator().next()), System::nanoTime);
        String header = plan.trials().size() + " trials (" + plan.runsPerVariant() + " per variant: "
                + String.join(", ", plan.variants().keySet()) + ", interleaved)";
        return run(header, launcher, progress, (runner, finished) -> runner.run(plan, finished),
                results -> ExperimentJson.write(outFile, plan, results), report);
    }

    /**
     * Runs the pairs of a paired plan, asking {@code rule} after each pair whether to go on, then {@code report}.
     * The experiment file is rewritten after each pair, with every window of the pairs so far (the two failure
     * records of a pair that failed). A stop by the rule is a completed experiment whose outcome carries the reason.
     */
    Finished runPairs(ExperimentPlan plan, TrialLauncher launcher, PairStoppingRule rule, Consumer<Finished> report) {
        int perPair = 2 * plan.windowsPerPair();
        Duration perResult = plan.with() instanceof EngineVariant engine
                ? AbProgress.firstGuess(engine).plusSeconds(3).dividedBy(perPair)
                        .plus(engine.workload().run().dividedBy(2)) : Duration.ofSeconds(1);
        AbProgress progress = new AbProgress(out, System.console() != null, plan.pairs() * perPair, perResult,
                System::nanoTime);
        String header = plan.pairs() + " pairs of " + plan.windowsPerPair() + " window" + (plan.windowsPerPair() == 1
                ? "" : "s") + " per variant (" + plan.design().label() + ")";
        return run(header, launcher, progress, (runner, finished) -> {
            PairedOutcome outcome = runner.runPairs(plan, new PairListener() {
                @Override
                public void pairStarted(int pair, PairPlacement placement) {
                    progress.startedPair(pair);
                }

                @Override
                public void pairFinished(PairResult pair) {
                    pair.results().forEach(finished);
                }
            }, rule);
            ExperimentOutcome.Stop stop = switch (outcome.stop()) {
                case COMPLETED, STOPPED_BY_RULE -> ExperimentOutcome.Stop.COMPLETED;
                case TOO_MANY_FAILURES -> ExperimentOutcome.Stop.TOO_MANY_FAILURES;
                case CANCELLED -> ExperimentOutcome.Stop.CANCELLED;
            };
            return new ExperimentOutcome(outcome.results(), stop, outcome.message());
        }, results -> ExperimentJson.write(outFile, plan, results), report);
    }

    /** Starts a run of {@code runner} that hands each finished trial to the consumer. */
    private interface Execution {
        ExperimentOutcome start(ExperimentRunner runner, Consumer<TrialResult> finished);
    }

    /** Writes the experiment file. */
    private interface Writer {
        void write(List<TrialResult> results) throws IOException;
    }

    private Finished run(String header, TrialLauncher launcher, AbProgress progress, Execution execution,
                         Writer writer, Consumer<Finished> report) {
        LoadWarning.check(err);
        ExperimentRunner runner = new ExperimentRunner(launcher, new OutputMetricsReader());
        List<TrialResult> results = new CopyOnWriteArrayList<>();
        AtomicReference<String> lastWriteFailure = new AtomicReference<>();
        CountDownLatch finished = new CountDownLatch(1);
        Thread interrupt = new Thread(() -> {
            runner.cancel();
            try {
                finished.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "perflab-" + name + "-cancel");
        Runtime.getRuntime().addShutdownHook(interrupt);
        try {
            out.println("perflab " + name + ": " + header + ", each in a fresh process"
                    + (outFile == null ? "" : "; writing " + outFile));
            ExperimentOutcome outcome = execution.start(runner, result -> {
                results.add(result);
                lastWriteFailure.set(write(writer, results));
                progress.finished(result);
            });
            progress.done();
            if (outcome.stop() != ExperimentOutcome.Stop.COMPLETED) {
                err.println("perflab " + name + ": " + outcome.message());
            }
            long failed = results.size() - outcome.succeeded();
            if (failed > 0) {
                err.println("perflab " + name + ": " + failed + " of " + results.size() + " trials did not succeed:");
                results.stream().filter(r -> !r.ok()).forEach(r -> err.println("  trial " + r.ordinal() + " ("
                        + r.variant() + ", " + r.status() + "): " + firstLine(r.error())));
                printLastOutput(results);
            }
            if (lastWriteFailure.get() != null) {
                err.println("perflab " + name + ": --out " + outFile + " does not hold the last trials (its last "
                        + "write failed: " + lastWriteFailure.get() + ")");
            }
            Finished done = new Finished(outcome, List.copyOf(results), lastWriteFailure.get() == null);
            report.accept(done);
            out.flush();
            return done;
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(interrupt);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running and waits for the finished latch above
            }
        }
    }

    /** Rewrites the experiment file, if any; returns why it could not, or null. */
    private String write(Writer writer, List<TrialResult> results) {
        if (outFile == null) {
            return null;
        }
        try {
            writer.write(new ArrayList<>(results));
            return null;
        } catch (IOException e) {
            String reason = e instanceof java.nio.file.NoSuchFileException ? "its folder no longer exists"
                    : e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                    : e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null ? fs.getReason()
                    : e.getMessage();
            err.println("perflab " + name + ": cannot write " + outFile + ": " + reason);
            return reason;
        }
    }

    /**
     * What the last failed trial that printed anything printed last (a JVM's "Invalid maximum heap size", taskset's
     * refusal), indented: its error's lines after the first, which the list above leaves out.
     */
    private void printLastOutput(List<TrialResult> results) {
        for (int i = results.size() - 1; i >= 0; i--) {
            TrialResult failed = results.get(i);
            String error = failed.ok() || failed.error() == null ? "" : failed.error();
            List<String> lines = error.lines().skip(1).filter(line -> !line.isBlank()).toList();
            if (!lines.isEmpty() && lines.get(0).startsWith("---")) {
                lines = lines.subList(1, lines.size()); // the runner's "--- last output ---"
            }
            if (!lines.isEmpty()) {
                err.println("  trial " + failed.ordinal() + " printed last:");
                lines.forEach(line -> err.println("    " + line));
                return;
            }
        }
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "";
        }
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }
}
