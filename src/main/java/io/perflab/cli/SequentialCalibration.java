package io.perflab.cli;

import static io.perflab.cli.EffectCalibration.interval;
import static io.perflab.cli.EffectCalibration.minutes;
import static io.perflab.cli.EffectCalibration.pp;

import io.perflab.paired.SequentialStopping;
import io.perflab.runner.experiment.PairPlacement;
import io.perflab.runner.experiment.PairResult;
import io.perflab.runner.experiment.PairStoppingRule;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.Display;
import io.perflab.stats.Proportion;
import io.perflab.stats.RelativeChange;
import io.perflab.stats.SequentialLook;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A paired calibration run judged as sequential experiments: each block of {@code perExperiment} pairs as
 * {@code perflab ab --pairs K --target … [--budget …]} would have judged it, by the same rule
 * ({@link SequentialStopping}): a look after every pair, O'Brien–Fleming-type α spending over the block's pairs (or
 * the pairs the budget allows at the first pair's cost). A target is judged as the experiment's page and reports judge
 * it: by its last look before the stop, whose repeated interval, from the most pairs, keeps its level whatever the
 * rule did (a target settled early is still looked at while others are open); the estimate adjusted for stopping is
 * made at the look that ended the target, as there. The block's
 * pairs after its stop are not used, as they would not have been run. So the stored A/A blocks give the
 * false-positive rate of the stopping rule itself, with its repeated looks, and the known-effect blocks its power,
 * the coverage of its repeated intervals and the time it saves, on exactly the pairs the fixed-size table judged.
 *
 * <p>A pair's time is taken from the stored windows: from the end of the pair before it in the run (the next pair's
 * JVMs start once the last ones are gone) to the end of its last window. The first pair of a run, which has none
 * before it, and a pair more than {@value #BREAK} times the median lead after the one before it (a file put together
 * from several runs, hours apart) are given that median lead — the time from a pair's end to the next one's first
 * window — before their first window.
 *
 * <p>Over 300 lines: the rule's judgement of each block, the times of stored pairs, and the report of either kind of
 * run, with the A/A headline metrics that are no target judged as the experiment reports them.
 *
 * @param fixed the run's blocks, injection and reference, as the fixed-size judgement has them
 * @param targets the metrics to settle, at least one
 * @param budget each experiment's time budget, if any
 */
record SequentialCalibration(EffectCalibration fixed, List<SequentialStopping.Target> targets,
                             Optional<Duration> budget) {

    /** A lead this many times the median one is a break between runs, not a pair's start (see the class's note). */
    static final int BREAK = 4;

    SequentialCalibration {
        targets = List.copyOf(targets);
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("a sequential judgement needs at least one target");
        }
        if (!fixed.design().paired()) {
            throw new IllegalArgumentException("a sequential judgement needs a paired design, not "
                    + fixed.design().label());
        }
    }

    /**
     * One block judged sequentially: per target metric its last look before the stop (the verdict and interval the
     * experiment reports), the look that ended it (the first that settled it, else its last) and whether any of
     * its looks crossed the efficacy boundary, the pairs the experiment ran to its stop, the time they took, and why
     * it stopped.
     */
    record Experiment(int firstPair, Map<String, SequentialLook> reported, Map<String, SequentialLook> ended,
                      Set<String> significantAtSomeLook, int pairs, Duration time,
                      Duration allPairsTime, Optional<SequentialStopping.Ending> ending, String reason) {
    }

    /** Each block's sequential judgement, for the blocks whose pairs allowed a look at every target. */
    List<Experiment> experiments(List<TrialResult> results) {
        List<PairResult> pairs = pairs(results);
        List<Experiment> experiments = new ArrayList<>();
        int k = fixed.perExperiment();
        for (int block = 0; block < fixed.experiments(); block++) {
            int from = block * k;
            List<PairResult> blockPairs = pairs.stream().filter(p -> p.index() >= from && p.index() < from + k)
                    .toList();
            if (!blockPairs.isEmpty()) {
                judge(from, blockPairs).ifPresent(experiments::add);
            }
        }
        return experiments;
    }

    private Optional<Experiment> judge(int firstPair, List<PairResult> block) {
        Instant start = block.get(0).start();
        long[] clock = {0};
        SequentialStopping rule = new SequentialStopping(targets, fixed.perExperiment(), fixed.alpha(), budget,
                () -> clock[0], looks -> { });
        int used = block.size();
        String reason = "every pair of the block was looked at";
        for (int i = 0; i < block.size(); i++) {
            clock[0] = Duration.between(start, block.get(i).end()).toNanos();
            PairStoppingRule.Decision decision = rule.afterPair(block.subList(0, i + 1));
            if (decision.stop()) {
                used = i + 1;
                reason = decision.reason();
                break;
            }
        }
        Map<String, SequentialLook> reported = new TreeMap<>();
        Map<String, SequentialLook> ended = new TreeMap<>();
        Set<String> significantAtSomeLook = new TreeSet<>();
        for (List<SequentialStopping.Look> afterPair : rule.looks()) {
            for (SequentialStopping.Look look : afterPair) {
                String metric = look.target().metric();
                reported.put(metric, look.look());
                if (look.look().outcome() == SequentialLook.Outcome.SIGNIFICANT) {
                    significantAtSomeLook.add(metric);
                }
                if (look.ending()) {
                    ended.putIfAbsent(metric, look.look());
                }
            }
        }
        reported.forEach(ended::putIfAbsent);  // a target no look ended (the block's pairs ran out): its last look
        if (reported.size() < targets.size()) {
            return Optional.empty();
        }
        Duration time = Duration.between(start, block.get(used - 1).end());
        Duration all = Duration.between(start, block.get(block.size() - 1).end());
        return Optional.of(new Experiment(firstPair, reported, ended, significantAtSomeLook, used, time, all,
                rule.ending(), reason));
    }

    /**
     * The run's pairs, in index order, each with the time it took (see the class's note); a pair none of whose
     * windows was measured is failed.
     */
    static List<PairResult> pairs(List<TrialResult> results) {
        Map<Integer, List<TrialResult>> byPair = new TreeMap<>();
        for (TrialResult r : results) {
            if (r.pair() != null && r.start() != null && r.end() != null) {
                byPair.computeIfAbsent(r.pair().index(), i -> new ArrayList<>()).add(r);
            }
        }
        List<Duration> leads = new ArrayList<>();
        Instant previousEnd = null;
        for (List<TrialResult> windows : byPair.values()) {
            if (previousEnd != null) {
                leads.add(Duration.between(previousEnd, firstStart(windows)));
            }
            previousEnd = lastEnd(windows);
        }
        Duration lead = leads.isEmpty() ? Duration.ZERO
                : leads.stream().sorted().toList().get((leads.size() - 1) / 2);
        List<PairResult> pairs = new ArrayList<>();
        previousEnd = null;
        for (Map.Entry<Integer, List<TrialResult>> e : byPair.entrySet()) {
            List<TrialResult> windows = e.getValue();
            Instant start = previousEnd != null && !previousEnd.isAfter(firstStart(windows))
                    && Duration.between(previousEnd, firstStart(windows)).compareTo(lead.multipliedBy(BREAK)) <= 0
                    ? previousEnd : firstStart(windows).minus(lead);
            Instant end = lastEnd(windows);
            boolean ok = windows.stream().anyMatch(r -> r.ok() && r.pair().window() != null);
            pairs.add(new PairResult(e.getKey(), ok ? TrialStatus.OK : TrialStatus.FAILED,
                    new PairPlacement(null, null, VariantName.WITHOUT), ok ? windows : List.of(), start, end,
                    Duration.ZERO, Duration.ZERO, ok ? null : "no window measured"));
            previousEnd = end;
        }
        return pairs;
    }

    private static Instant firstStart(List<TrialResult> windows) {
        return windows.stream().map(TrialResult::start).min(Instant::compareTo).orElseThrow();
    }

    private static Instant lastEnd(List<TrialResult> windows) {
        return windows.stream().map(TrialResult::end).max(Instant::compareTo).orElseThrow();
    }

    /** The report: per target metric the false positives, or bias, coverage and power; then the stops and the time. */
    String format(List<TrialResult> results) {
        List<Experiment> experiments = experiments(results);
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%nThe same experiments judged as sequential "
                + "ones (perflab ab --pairs %d %s%s: a look after every pair, O'Brien–Fleming-type spending, the "
                + "repeated interval of each target's last look, as the experiment reports it; pairs after a stop "
                + "unused):%n", fixed.perExperiment(),
                String.join(" ", targets.stream().map(t -> "--target " + t).toList()),
                budget.map(b -> " --budget " + b.toSeconds() + "s").orElse("")));
        if (experiments.isEmpty()) {
            return s.append("  no experiment had the pairs for a look at every target.\n").toString();
        }
        boolean aa = fixed.injectedNanos() == 0;
        String row = "%-24s %10s %10s %9s %11s %-18s %11s %-18s %10s%n";
        s.append(aa ? String.format(Locale.ROOT, "%-24s %10s %10s %7s %-18s %12s%n", "metric", "experiments",
                "false +", "rate", "95% CI", "mean ± CI")
                : String.format(Locale.ROOT, row, "metric", "reference", "estimate", "bias", "coverage", "95% CI",
                "power", "95% CI", "mean ± CI"));
        for (SequentialStopping.Target target : targets) {
            String metric = target.metric();
            List<RelativeChange> changes = experiments.stream().map(e -> e.reported().get(metric).relativeChange())
                    .toList();
            double halfWidth = halfWidth(changes);
            double ref = aa ? 0 : fixed.referenceOf(metric, results);
            long significant = experiments.stream().filter(e -> e.reported().get(metric).outcome()
                    == SequentialLook.Outcome.SIGNIFICANT && (aa || !Double.isFinite(ref)
                    || Math.signum(e.reported().get(metric).estimate()) == Math.signum(ref))).count();
            Proportion rate = Proportion.clopperPearson((int) significant, experiments.size(), 0.95);
            if (aa) {
                s.append(aaRow(metric, experiments.size(), (int) significant, halfWidth));
                continue;
            }
            double mean = changes.stream().mapToDouble(RelativeChange::percent).average().orElse(Double.NaN);
            EffectCalibration.Coverage coverage = EffectCalibration.Coverage.of(changes.stream()
                    .map(c -> new double[] {c.ciLowPercent(), c.ciHighPercent()}).toList(), ref);
            s.append(String.format(Locale.ROOT, row, metric, Double.isFinite(ref) ? Display.percent(ref) : "—",
                    Display.percent(mean), Double.isFinite(ref) ? String.format(Locale.ROOT, "%+.2f pp", mean - ref)
                            : "—", coverage.share(), coverage.interval(), significant + "/" + experiments.size(),
                    interval(rate), "±" + pp(halfWidth)));
            List<RelativeChange> adjusted = experiments.stream().map(e -> e.ended().get(metric)
                    .stagewise(1 - fixed.alpha())).toList();
            double adjustedMean = adjusted.stream().mapToDouble(RelativeChange::percent).average().orElse(Double.NaN);
            EffectCalibration.Coverage adjustedCoverage = EffectCalibration.Coverage.of(adjusted.stream()
                    .map(c -> new double[] {c.ciLowPercent(), c.ciHighPercent()}).toList(), ref);
            s.append(String.format(Locale.ROOT, row, "  adjusted for stopping", "", Display.percent(adjustedMean),
                    Double.isFinite(ref) ? String.format(Locale.ROOT, "%+.2f pp", adjustedMean - ref) : "—",
                    adjustedCoverage.share(), adjustedCoverage.interval(), "", "", "±" + pp(halfWidth(adjusted))));
        }
        if (aa) {
            s.append("at any look before the stop (the page showed it while the experiment ran): ").append(String.join(
                    ", ", targets.stream().map(t -> t.metric() + " " + experiments.stream().filter(e -> e
                            .significantAtSomeLook().contains(t.metric())).count() + "/" + experiments.size())
                            .toList())).append('\n');
            appendAsReported(s, experiments, results);
        }
        int[] used = experiments.stream().mapToInt(Experiment::pairs).sorted().toArray();
        long settled = ended(experiments, SequentialStopping.Ending.SETTLED);
        long overBudget = ended(experiments, SequentialStopping.Ending.BUDGET);
        // with a smallest change, how many of the settled ones a futile look ended (a target's first settling look)
        String futile = targets.stream().noneMatch(t -> t.smallestChangePercent() > 0) ? "" : String.format(
                Locale.ROOT, " (a target futile in %d)", experiments.stream().filter(e -> e.ending()
                        .filter(SequentialStopping.Ending.SETTLED::equals).isPresent() && e.ended().values()
                        .stream().anyMatch(l -> l.outcome() == SequentialLook.Outcome.FUTILE)).count());
        s.append(String.format(Locale.ROOT, "stopped: every target settled in %d%s, the budget in %d, at the last "
                        + "look in %d; pairs used: median %s (%d–%d) of %d; time: %s per experiment (median %s) "
                        + "against %s (median %s) for all of a block's pairs.%n", settled, futile, overBudget,
                experiments.size() - settled - overBudget, median(used), used[0], used[used.length - 1],
                fixed.perExperiment(), minutes(mean(experiments, Experiment::time)),
                minutes(median(experiments, Experiment::time)), minutes(mean(experiments, Experiment::allPairsTime)),
                minutes(median(experiments, Experiment::allPairsTime))));
        s.append(aa ? "false +: experiments whose last look before the stop called a change significant although both "
                + "sides ran the same (a headline metric that is no target: whose paired t-test of the pairs run "
                + "until the stop did); mean ± CI: the half-width of that look's repeated interval; pooled "
                + "as reported: user, system and total CPU and context switches per request, each as the experiment "
                + "reports it.\n" : "power: experiments whose rule called the change significant on the reference's "
                + "side; coverage: repeated intervals that held the reference; estimate: the mean of the estimates "
                + "of the last looks (an early stop on a large estimate biases it outward); adjusted "
                + "for stopping: the median-unbiased estimate and the interval of the stage-wise ordering at the "
                + "look that ended the target (the first that settled it), which take the early looks' boundaries "
                + "into account.\n");
        return s.toString();
    }

    /**
     * A/A: the headline metrics that are not targets, each as the experiment reports it, by the paired t-test of the
     * pairs run until the rule stopped (its length chosen by looks at the targets); then the four headline metrics
     * pooled that way, a target by its rule. A sequential default's false-positive rate is this, not the fixed-size
     * table's: a metric tested at a stop another metric chose keeps α only as far as the two move independently.
     */
    private void appendAsReported(StringBuilder s, List<Experiment> experiments, List<TrialResult> results) {
        ComparisonOptions options = ComparisonOptions.defaults().withAlpha(fixed.alpha());
        List<String> targetMetrics = targets.stream().map(SequentialStopping.Target::metric).toList();
        StringBuilder rows = new StringBuilder();
        int tests = 0;
        int falsePositives = 0;
        for (String metric : EffectCalibration.POOLED) {
            if (targetMetrics.contains(metric)) {
                tests += experiments.size();
                falsePositives += (int) experiments.stream().filter(e -> e.reported().get(metric).outcome()
                        == SequentialLook.Outcome.SIGNIFICANT).count();
                continue;
            }
            List<EffectCalibration.Estimate> atTheStop = new ArrayList<>();
            for (Experiment e : experiments) {
                try {
                    atTheStop.add(fixed.pairedEstimate(results, metric, e.firstPair(), e.firstPair() + e.pairs(),
                            options, EffectCalibration.Judgement.VERDICT));
                } catch (IllegalArgumentException | NoSuchElementException notMeasured) {
                    // a metric these windows did not measure, or too few pairs for a test: no experiment of it
                }
            }
            if (!atTheStop.isEmpty()) {
                int significant = (int) atTheStop.stream().filter(e -> e.pValue() < fixed.alpha()).count();
                rows.append(aaRow(metric, atTheStop.size(), significant, atTheStop.stream()
                        .mapToDouble(e -> (e.highPercent() - e.lowPercent()) / 2).filter(Double::isFinite)
                        .average().orElse(Double.NaN)));
                tests += atTheStop.size();
                falsePositives += significant;
            }
        }
        if (!rows.isEmpty()) {
            s.append("the headline metrics that are no target, by the paired t-test of the pairs run until the stop "
                    + "(as the experiment reports them):\n").append(rows);
        }
        if (tests > 0) {
            Proportion pooled = Proportion.clopperPearson(falsePositives, tests, 0.95);
            s.append(String.format(Locale.ROOT, "%-24s %10d %10s %7.2f %-18s%n", "pooled as reported", tests,
                    falsePositives + "/" + tests, pooled.rate(), interval(pooled)));
        }
    }

    /** An A/A table's row: the experiments, those that called a change, its rate and the intervals' half-width. */
    private static String aaRow(String metric, int experiments, int significant, double halfWidth) {
        Proportion rate = Proportion.clopperPearson(significant, experiments, 0.95);
        return String.format(Locale.ROOT, "%-24s %10d %10s %7.2f %-18s %12s%n", metric, experiments,
                significant + "/" + experiments, rate.rate(), interval(rate), "±" + pp(halfWidth));
    }

    /** The mean half-width of the intervals, in percentage points. */
    private static double halfWidth(List<RelativeChange> changes) {
        return changes.stream().mapToDouble(c -> (c.ciHighPercent() - c.ciLowPercent()) / 2)
                .filter(Double::isFinite).average().orElse(Double.NaN);
    }

    private static long ended(List<Experiment> experiments, SequentialStopping.Ending ending) {
        return experiments.stream().filter(e -> e.ending().equals(Optional.of(ending))).count();
    }

    private static String median(int[] sorted) {
        double m = sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2.0;
        return Display.value(m).strip();
    }

    private static Duration mean(List<Experiment> experiments, java.util.function.Function<Experiment, Duration> f) {
        return Duration.ofMillis(Math.round(experiments.stream().mapToLong(e -> f.apply(e).toMillis()).average()
                .orElse(0)));
    }

    private static Duration median(List<Experiment> experiments, java.util.function.Function<Experiment, Duration> f) {
        long[] millis = experiments.stream().mapToLong(e -> f.apply(e).toMillis()).sorted().toArray();
        long m = millis.length % 2 == 1 ? millis[millis.length / 2]
                : (millis[millis.length / 2 - 1] + millis[millis.length / 2]) / 2;
        return Duration.ofMillis(m);
    }
}
