package io.perflab.cli;

import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.PlannedTrial;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.TrialResult;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress of {@code ab}: on a terminal one bar redrawn in place, with an ETA from the trials so far; otherwise
 * (a pipe, a CI log) one line per finished trial.
 */
final class AbProgress {

    private static final int BAR_WIDTH = 30;

    private final PrintWriter out;
    private final boolean terminal;
    private final int total;
    private final Duration firstGuess;
    private final LongSupplier nanoClock;
    private final long startNanos;
    private int finished;
    private int failed;

    AbProgress(PrintWriter out, boolean terminal, ExperimentPlan plan) {
        this(out, terminal, plan, System::nanoTime);
    }

    AbProgress(PrintWriter out, boolean terminal, ExperimentPlan plan, LongSupplier nanoClock) {
        this(out, terminal, plan.trials().size(), plan.with() instanceof EngineVariant engine
                ? firstGuess(engine) : Duration.ofSeconds(1), nanoClock);
    }

    /**
     * @param total trials of the experiment
     * @param firstGuess how long a trial takes, for the ETA before the first has finished
     */
    AbProgress(PrintWriter out, boolean terminal, int total, Duration firstGuess, LongSupplier nanoClock) {
        this.out = out;
        this.terminal = terminal;
        this.total = total;
        this.firstGuess = firstGuess;
        this.nanoClock = nanoClock;
        this.startNanos = nanoClock.getAsLong();
    }

    /** Warmup (or its cap), window and two seconds of JVM start and shutdown. */
    static Duration firstGuess(EngineVariant engine) {
        return engine.workload().warmup().duration().plus(engine.workload().run()).plusSeconds(2);
    }

    void started(PlannedTrial trial) {
        started(trial.ordinal(), trial.variant().label());
    }

    void started(int ordinal, String variant) {
        if (terminal) {
            draw("trial " + (ordinal + 1) + " (" + variant + ") running");
        }
    }

    /** A pair of a paired design is starting its JVMs. */
    void startedPair(int pair) {
        if (terminal) {
            draw("pair " + pair + " running");
        }
    }

    void finished(TrialResult result) {
        finished++;
        if (!result.ok()) {
            failed++;
        }
        String which = result.pair() == null ? "trial" : "pair " + result.pair().index()
                + (result.pair().window() == null ? "" : " window " + result.pair().window()) + ",";
        if (terminal) {
            draw((result.pair() == null ? "trial " + (result.ordinal() + 1) : which) + " " + result.status());
            return;
        }
        out.println(String.format(Locale.ROOT, "%s %d/%d %-7s %-9s pid %d %s", which, finished, total,
                result.variant(), result.status(), result.pid(), summary(result)));
        out.flush();
    }

    /** Ends the bar's line. */
    void done() {
        if (terminal) {
            out.println();
            out.flush();
        }
    }

    private void draw(String state) {
        int filled = total == 0 ? BAR_WIDTH : BAR_WIDTH * finished / total;
        String bar = "#".repeat(filled) + ".".repeat(BAR_WIDTH - filled);
        out.print(String.format(Locale.ROOT, "\r[%s] %d/%d%s  ETA %s  %s\033[K", bar, finished, total,
                failed == 0 ? "" : " (" + failed + " failed)", eta(), state));
        out.flush();
    }

    private String eta() {
        long elapsed = nanoClock.getAsLong() - startNanos;
        long perTrial = finished == 0 ? firstGuess.toNanos() : elapsed / finished;
        long seconds = Duration.ofNanos(perTrial * (total - finished)).toSeconds();
        return String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
    }

    private static String summary(TrialResult result) {
        if (!result.ok()) {
            String error = result.error() == null ? "" : result.error();
            int newline = error.indexOf('\n');
            return newline < 0 ? error : error.substring(0, newline);
        }
        var m = result.metrics();
        if (m.containsKey(MetricKeys.REQS_PER_SEC)) {
            return String.format(Locale.ROOT, "reqs/s %.0f  user %.2fus  sys %.2fus  ctxsw %.3f per req",
                    m.get(MetricKeys.REQS_PER_SEC), m.get(MetricKeys.USER_CPU_US_PER_REQ),
                    m.get(MetricKeys.SYS_CPU_US_PER_REQ), m.get(MetricKeys.CTX_SWITCHES_PER_REQ));
        }
        return String.format(Locale.ROOT, "wall %.1f ms  user %.1f ms  sys %.1f ms  ctxsw %.0f",
                m.getOrDefault(MetricKeys.WALL_MS, Double.NaN), m.getOrDefault(MetricKeys.USER_CPU_MS, Double.NaN),
                m.getOrDefault(MetricKeys.SYS_CPU_MS, Double.NaN), m.getOrDefault(MetricKeys.CTX_SWITCHES, Double.NaN));
    }
}
