package io.perflab.paired;

import io.perflab.runner.experiment.PairResult;
import io.perflab.runner.experiment.PairStoppingRule;
import io.perflab.runner.rpcbench.HostCount;
import io.perflab.runner.trial.TrialResult;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.Display;
import io.perflab.stats.PairedAnalysis;
import io.perflab.stats.RelativeChange;
import io.perflab.stats.SequentialLook;
import io.perflab.stats.SequentialPlan;
import io.perflab.stats.SpendingFunction;
import io.perflab.system.PrintableText;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Stops a paired experiment once it has its answer: after each pair, a look of a group-sequential test per target
 * metric ({@link SequentialPlan}: O'Brien–Fleming-type α spending over the planned pairs, repeated confidence
 * intervals), so that the false-positive rate stays at α however often it looks. The experiment stops when every
 * target is settled — its change significant at α, or its repeated interval as narrow as asked — or when its time
 * budget would be overrun by one more pair, or when the last look of the plan has been made; at that last look the rest
 * of α is spent.
 *
 * <p>With a budget, α is spent over the pairs the budget allows rather than all that were asked for: once the first
 * pair has finished, and before any look (looks start at two pairs), N becomes the smaller of the pairs asked for
 * and the budget divided by that pair's cost. It depends on the cost alone, never on the data, so the looks keep
 * their α; without it, a budget that allows 6 pairs of a plan of 40 stops at boundaries meant for a fifth of the
 * information (|t| ≥ 338 at 5 pairs).
 *
 * <p>Each look is handed to a consumer as it is made (the command line prints it) and kept ({@link #looks()}).
 *
 * <p>Its state is what its looks say: a rule built anew from the looks stored so far ({@link #continuing(List,
 * int)}) and measuring its budget from the start of the run ({@link #since}) decides after the next pair as the
 * rule that made them would. The service builds it so for each pair a remote agent posts. Over 300 lines because
 * the rule, its targets and its looks, made now or stored before, are one piece.
 */
public final class SequentialStopping implements PairStoppingRule {

    /** How every target's looks spend α: what the results name beside a target's repeated interval. */
    public static final SpendingFunction SPENDING = SpendingFunction.OBRIEN_FLEMING;

    private final List<Target> targets;
    private final int maxPairs;
    private final double alpha;
    private final Optional<Duration> budget;
    private final LongSupplier nanoClock;
    private long startNanos;
    /** What the pairs of earlier runs of the experiment took of its budget. */
    private Duration spentBefore = Duration.ZERO;
    private final Consumer<List<Look>> onLooks;
    private final Map<String, List<Integer>> pairsAtLooks = new LinkedHashMap<>();
    /** N, the pairs α is spent over: {@link #maxPairs}, or fewer once the first pair's cost shows the budget's. */
    private int plannedPairs;
    private boolean planned;
    /** The pairs the budget allows at the first pair's cost, once known; 0 before, or without a budget. */
    private long budgetAllows;
    /** Per settled target metric, the look that settled it first, as the stop reason gives it. */
    private final Map<String, String> settled = new LinkedHashMap<>();
    private final List<List<Look>> looks = new ArrayList<>();
    private Ending ending;

    /**
     * @param targets the metrics to settle, at least one
     * @param maxPairs the pairs of the plan: N, over which α is spent
     * @param alpha two-sided type I error of each target's sequence of looks
     * @param budget the wall time the experiment may take, if limited: from now, after what earlier runs spent of it
     *     ({@link #spentBefore})
     * @param nanoClock the monotonic clock the budget is measured on
     * @param onLooks told the looks made after each pair
     */
    public SequentialStopping(List<Target> targets, int maxPairs, double alpha, Optional<Duration> budget,
                              LongSupplier nanoClock, Consumer<List<Look>> onLooks) {
        if (targets.isEmpty() && budget.isEmpty()) {
            throw new IllegalArgumentException("a stopping rule needs a target or a budget");
        }
        this.targets = List.copyOf(targets);
        this.maxPairs = maxPairs;
        this.alpha = alpha;
        this.budget = Objects.requireNonNull(budget, "budget");
        this.nanoClock = nanoClock;
        this.startNanos = nanoClock.getAsLong();
        this.onLooks = onLooks;
        this.plannedPairs = maxPairs;
    }

    @Override
    public Decision afterPair(List<PairResult> pairs) {
        planOnce(pairs);
        boolean budgetSpent = budgetSpent(pairs);
        List<TrialResult> results = pairs.stream().flatMap(p -> p.results().stream()).toList();
        PairedSamples samples = PairedSamples.of(results);
        Optional<String> unmeasured = unmeasured(results, samples);
        if (unmeasured.isPresent()) {
            ending = Ending.UNMEASURED;
            return Decision.stop(unmeasured.get());
        }
        List<Look> made = new ArrayList<>();
        for (Target target : targets) {
            PairedAnalysis analysis;
            try {
                analysis = PairedAnalysis.analyze(samples.windows(target.metric()), ComparisonOptions.defaults()
                        .withConfidenceLevel(1 - alpha));
            } catch (IllegalArgumentException notYet) {
                continue;
            }
            List<Integer> done = pairsAtLooks.computeIfAbsent(target.metric(), k -> new ArrayList<>());
            int n = Math.min(analysis.pairs(), plannedPairs);
            if (!done.isEmpty() && n <= done.get(done.size() - 1)) {
                continue;
            }
            done.add(n);
            SequentialLook look = new SequentialPlan(SPENDING, alpha, plannedPairs, target.halfWidthPercent(),
                    target.smallestChangePercent()).look(done.stream().mapToInt(Integer::intValue).toArray(), analysis,
                    budgetSpent);
            // the look that ends the target: the first that settles it, or a last look of one never settled
            Look result = new Look(target, look, analysis, look.stop() && !settled.containsKey(target.metric()));
            made.add(result);
            if (look.outcome().settles()) {
                settled.putIfAbsent(target.metric(), result.summary());
            }
        }
        looks.add(List.copyOf(made));
        onLooks.accept(List.copyOf(made));
        if (!targets.isEmpty() && settled.size() == targets.size()) {
            ending = Ending.SETTLED;
            return Decision.stop("every target is settled: " + String.join("; ", settled.values()));
        }
        String state = made.isEmpty() ? "" : ": " + String.join("; ", made.stream().map(Look::summary).toList());
        if (budgetSpent) {
            ending = Ending.BUDGET;
            return Decision.stop("the time budget of " + minutes(budget.orElseThrow()) + " would be overrun by "
                    + "another pair after " + pairs.size() + " pairs" + state);
        }
        if (lastLooksMade()) {
            ending = Ending.LAST_LOOK;
            return Decision.stop("α is spent: the look at " + plannedPairs + " pairs was the plan's last, and "
                    + "another pair could change no verdict" + state + unusedBudget());
        }
        return Decision.CONTINUE;
    }

    /**
     * Why a target can never be looked at, where its metric is in no window of pairs that measured others: a count
     * this host does not give (system calls, instructions), or a line the command never prints. Waiting for it would
     * run the plan's pairs for nothing. Empty while every target's metric has been measured, or nothing has.
     */
    private Optional<String> unmeasured(List<TrialResult> results, PairedSamples samples) {
        if (samples.metrics().isEmpty()) {
            return Optional.empty();
        }
        Optional<String> missing = targets.stream().map(Target::metric)
                .filter(metric -> !samples.metrics().contains(metric)).findFirst();
        if (missing.isEmpty()) {
            return Optional.empty();
        }
        String metric = missing.get();
        // the trials' own word on why, where the count is one a host may not make
        String why = HostCount.of(metric).flatMap(count -> results.stream().filter(TrialResult::ok)
                .map(r -> r.environment().get(count.notCountedKey())).filter(Objects::nonNull).findFirst()
                .map(reason -> " (" + count.notCountedKey() + ": " + reason + ")")).orElse("");
        return Optional.of(metric + " is not measured here, so its target can never be settled: no window of the "
                + samples.pairs() + " pair" + (samples.pairs() == 1 ? "" : "s") + " so far reported it" + why
                + "; the other metrics are compared as measured");
    }

    /**
     * Whether every target still open has had its look at N pairs, the last of the plan: there α is spent, and a pair
     * more (which the budget may still allow when the first pair, which fixed N, was slower than the rest) could
     * neither settle a target nor be looked at.
     */
    private boolean lastLooksMade() {
        return !targets.isEmpty() && targets.stream().filter(t -> !settled.containsKey(t.metric())).allMatch(t -> {
            List<Integer> done = pairsAtLooks.getOrDefault(t.metric(), List.of());
            return !done.isEmpty() && done.get(done.size() - 1) >= plannedPairs;
        });
    }

    /**
     * What a stop at the plan's most pairs left of a budget that allowed more, for the reason: a budget given without
     * the pairs keeps the default's most pairs, and the user who meant the budget to be the limit learns how to make
     * it so. Empty otherwise.
     */
    private String unusedBudget() {
        if (budget.isEmpty() || budgetAllows <= maxPairs) {
            return "";
        }
        return " (the budget of " + minutes(budget.get()) + " would have allowed about " + budgetAllows + " pairs at "
                + "the first pair's cost; the plan's most pairs, " + maxPairs + ", ended the experiment first: ask for "
                + "more pairs to spend the budget)";
    }

    /** N, the pairs over which α is spent: the pairs asked for, or those the budget allows. */
    public int plannedPairs() {
        return plannedPairs;
    }

    /** Fixes N from the first timed pair's cost, before any look is made. */
    private void planOnce(List<PairResult> pairs) {
        if (planned || budget.isEmpty() || pairsAtLooks.values().stream().anyMatch(l -> !l.isEmpty())) {
            return;
        }
        pairs.stream().filter(p -> p.ok() && p.start() != null && p.end() != null).findFirst().ifPresent(first -> {
            long cost = Math.max(1, Duration.between(first.start(), first.end()).toNanos());
            // the whole budget over the first pair's cost, whichever run this is: a resumed run plans as the
            // experiment did before it was interrupted, and counts its looks among all pairs, earlier ones included
            long allowed = budget.get().toNanos() / cost;
            plannedPairs = (int) Math.max(2, Math.min(maxPairs, allowed));
            budgetAllows = allowed;
            planned = true;
        });
    }

    /**
     * Goes on from the looks an earlier run of the same experiment made before it was interrupted: per target metric,
     * the pairs at each of its looks, and N, the pairs α was spent over then ({@link #plannedPairs()}). The next look
     * of a metric is numbered after them and spends α from where they left off, over the same N, as if the experiment
     * had never stopped. Call before the first pair; without earlier looks it changes nothing.
     */
    public SequentialStopping continuing(Map<String, List<Integer>> earlierPairsAtLooks, int earlierPlannedPairs) {
        if (earlierPairsAtLooks.values().stream().allMatch(List::isEmpty)) {
            return this;
        }
        earlierPairsAtLooks.forEach((metric, pairs) -> pairsAtLooks.computeIfAbsent(metric, k -> new ArrayList<>())
                .addAll(pairs));
        plannedPairs = Math.max(2, Math.min(maxPairs, earlierPlannedPairs));
        planned = true;
        return this;
    }

    /**
     * Goes on from the looks an earlier run — or, for a rule built anew at each pair, every pair so far — made and
     * stored, in the order they were made: their pairs and N as {@link #continuing(Map, int)}, and the targets they
     * settled stay settled, as if the experiment had never stopped. Call before the first pair.
     */
    public SequentialStopping continuing(List<EarlierLook> earlier, int earlierPlannedPairs) {
        Map<String, List<Integer>> pairs = new LinkedHashMap<>();
        earlier.forEach(l -> pairs.computeIfAbsent(l.metric(), k -> new ArrayList<>()).add(l.pairs()));
        continuing(pairs, earlierPlannedPairs);
        List<String> metrics = targets.stream().map(Target::metric).toList();
        earlier.stream()
                .filter(l -> metrics.contains(l.metric()) && l.outcome().settles())
                .sorted(java.util.Comparator.comparingInt(EarlierLook::pairs)
                        .thenComparingInt(l -> metrics.indexOf(l.metric())))
                .forEach(l -> settled.putIfAbsent(l.metric(), summary(targets.get(metrics.indexOf(l.metric())),
                        l.look(), l.pairs(), l.percent(), l.ciLowPercent(), l.ciHighPercent(), l.halfWidthPercent(),
                        l.outcome())));
        return this;
    }

    /**
     * Measures the budget from {@code startNanos} on its nano clock instead of from its construction: the start of
     * the run, for a rule built anew at each of its pairs. Call before the first pair.
     */
    public SequentialStopping since(long startNanos) {
        this.startNanos = startNanos;
        return this;
    }

    /**
     * Counts {@code spent}, what the pairs of earlier runs of the experiment took, against its budget: the budget is
     * the experiment's, and this run has what they left of it. Call before the first pair.
     */
    public SequentialStopping spentBefore(Duration spent) {
        this.spentBefore = Objects.requireNonNull(spent, "spent");
        return this;
    }

    /** Why the rule stopped the experiment, empty while it goes on. */
    public Optional<Ending> ending() {
        return Optional.ofNullable(ending);
    }

    /** Why a rule stops: the reason it gives says it in words, with the figures. */
    public enum Ending {
        /** Every target settled: a verdict, or the precision asked for. */
        SETTLED,
        /** Another pair would overrun the time budget. */
        BUDGET,
        /** The look at the plan's last pair was made: α is spent. */
        LAST_LOOK,
        /** A target's metric is in no window: this host does not count it, or the command does not print it. */
        UNMEASURED
    }

    /** Every look so far, one list per pair that finished. */
    public List<List<Look>> looks() {
        return List.copyOf(looks);
    }

    /**
     * Whether the time spent, by earlier runs and this one, and one more pair as long as the pairs so far, would
     * exceed the budget.
     */
    private boolean budgetSpent(List<PairResult> pairs) {
        if (budget.isEmpty()) {
            return false;
        }
        long elapsed = nanoClock.getAsLong() - startNanos + spentBefore.toNanos();
        long nextPair = (long) pairs.stream().filter(p -> p.start() != null && p.end() != null)
                .mapToLong(p -> Duration.between(p.start(), p.end()).toNanos()).average().orElse(0);
        return elapsed + nextPair > budget.get().toNanos();
    }

    private static String minutes(Duration d) {
        long s = d.toSeconds();
        return s % 60 == 0 ? s / 60 + " min" : String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
    }

    /**
     * A metric to settle.
     *
     * @param metric the metric key
     * @param halfWidthPercent settled once the repeated interval of its change is at most ± this many percent; 0 for
     *     "until its verdict is settled" (the change significant at α, or the last look)
     * @param smallestChangePercent with a half-width of 0, the smallest change worth finding: settled too once a
     *     change of ± this many percent is unlikely to be found by the last look (futile, {@link SequentialPlan});
     *     0 for no such stop
     */
    public record Target(String metric, double halfWidthPercent, double smallestChangePercent) {

        /** The largest smallest change a target takes: a change of 1,000 % is no performance change to look for. */
        public static final double MAX_SMALLEST_CHANGE = 1000;

        public Target {
            Objects.requireNonNull(metric, "metric");
            if (!(halfWidthPercent >= 0) || Double.isInfinite(halfWidthPercent)) {
                throw new IllegalArgumentException("a target half-width is a percentage ≥ 0, got " + halfWidthPercent);
            }
            if (!(smallestChangePercent >= 0 && smallestChangePercent <= MAX_SMALLEST_CHANGE)
                    || (smallestChangePercent > 0 && halfWidthPercent > 0)) {
                throw new IllegalArgumentException("a target's smallest change is a percentage in [0, "
                        + (int) MAX_SMALLEST_CHANGE + "], with no half-width, got " + smallestChangePercent);
            }
        }

        /** A target without a smallest change. */
        public Target(String metric, double halfWidthPercent) {
            this(metric, halfWidthPercent, 0);
        }

        /**
         * Parses {@code cpu_us_per_req:1%} (a half-width), {@code cpu_us_per_req:settled} or
         * {@code cpu_us_per_req:mde=2%} (settled, or futile for a change of ±2 %).
         *
         * @throws IllegalArgumentException naming the forms it takes
         */
        public static Target parse(String text) {
            int colon = text.lastIndexOf(':');
            String metric = colon < 0 ? "" : text.substring(0, colon).strip();
            String goal = colon < 0 ? "" : text.substring(colon + 1).strip();
            if (metric.isEmpty() || goal.isEmpty()) {
                throw new IllegalArgumentException("a target is METRIC:PERCENT%, METRIC:settled or "
                        + "METRIC:mde=PERCENT%, e.g. cpu_us_per_req:1% — got '" + PrintableText.Validator.quoted(text)
                        + "'");
            }
            if (goal.equalsIgnoreCase("settled")) {
                return new Target(metric, 0);
            }
            boolean mde = goal.regionMatches(true, 0, "mde=", 0, 4);
            String number = mde ? goal.substring(4).strip() : goal;
            try {
                double percent = Double.parseDouble(number.endsWith("%") ? number.substring(0, number.length() - 1)
                        : number);
                if (!(percent > 0) || Double.isInfinite(percent) || (mde && percent > MAX_SMALLEST_CHANGE)) {
                    throw new NumberFormatException();
                }
                return mde ? new Target(metric, 0, percent) : new Target(metric, percent);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(mde ? "a target's smallest change (mde=) is a percentage above 0 "
                        + "and at most " + (int) MAX_SMALLEST_CHANGE + ", e.g. mde=2%, got '"
                        + PrintableText.Validator.quoted(goal) + "' in '" + PrintableText.Validator.quoted(text) + "'"
                        : "a target's precision is a percentage > 0, 'settled' or mde=PERCENT%, got '"
                        + PrintableText.Validator.quoted(goal) + "' in '" + PrintableText.Validator.quoted(text) + "'");
            }
        }

        /**
         * {@code METRIC:PERCENT%}, {@code METRIC:settled} or {@code METRIC:mde=PERCENT%}, which {@link #parse} reads
         * back as this very target: it is how a target is stored. A half-width rounded for display read back as
         * another (0.12345 as 0.1235), or as no number at all (1.7976e308 as 1.798e+308, which overflows).
         */
        @Override
        public String toString() {
            return metric + (smallestChangePercent > 0 ? ":mde=" + exactly(smallestChangePercent) + "%"
                    : halfWidthPercent == 0 ? ":settled" : ":" + exactly(halfWidthPercent) + "%");
        }

        /** A decimal that parses back to {@code value}: plain while short ({@code 1}, {@code 0.12345}), else E form. */
        private static String exactly(double value) {
            String plain = BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
            return plain.length() <= 20 ? plain : Double.toString(value);
        }
    }

    /**
     * A look made and stored before, as a rule going on from it needs it ({@link #continuing(List, int)}); the
     * figures are NaN where the store holds none.
     *
     * @param metric its target's metric
     * @param look 1, 2, … per metric
     * @param pairs the pairs analysed at it
     * @param outcome what it decided
     */
    public record EarlierLook(String metric, int look, int pairs, double percent, double ciLowPercent,
                              double ciHighPercent, double halfWidthPercent, SequentialLook.Outcome outcome) {
    }

    /** A settled or unsettled target at a look, as the stop reason names it. */
    private static String summary(Target target, int look, int pairs, double percent, double ciLowPercent,
                                  double ciHighPercent, double halfWidthPercent, SequentialLook.Outcome outcome) {
        return target.metric() + " " + Display.percent(percent) + " " + Display.percentInterval(ciLowPercent,
                ciHighPercent) + " at look " + look + " (" + pairs + " pairs): " + outcome(target, halfWidthPercent,
                outcome);
    }

    private static String outcome(Target target, double halfWidthPercent, SequentialLook.Outcome outcome) {
        return switch (outcome) {
            case CONTINUE -> "continue";
            case SIGNIFICANT -> "significant at α despite the looks";
            case PRECISE_ENOUGH -> "precise enough (±" + Display.value(halfWidthPercent).strip() + "% ≤ ±"
                    + Display.value(target.halfWidthPercent()).strip() + "%)";
            case LAST_LOOK -> "last look, not significant";
            case FUTILE -> "futile, a change of ±" + Display.value(target.smallestChangePercent()).strip()
                    + "% unlikely to be found by the last look";
        };
    }

    /**
     * One target's look after a pair.
     *
     * @param target the target
     * @param look the boundaries, the repeated interval and the outcome
     * @param analysis the paired analysis of the pairs at this look
     * @param ending whether this look ends the target — the first that settles it, or the last look of one never
     *     settled — so that its estimate adjusted for stopping applies (a settled target looked at again while
     *     others are open does not stop the experiment there)
     */
    public record Look(Target target, SequentialLook look, PairedAnalysis analysis, boolean ending) {

        /** One line: the look, the change with its repeated interval, the test against its boundary, the outcome. */
        public String describe() {
            SequentialLook l = look;
            return String.format(Locale.ROOT, "look %d (%d pairs, %.0f %% of %d): %s %s %s repeated %s CI, ±%s; "
                            + "|t| = %s %s %s%s → %s", l.look(), l.pairs(), 100 * l.informationFraction(),
                    Math.round(l.pairs() / l.informationFraction()), target.metric(),
                    Display.percent(l.relativeChange().percent()),
                    Display.percentInterval(l.relativeChange().ciLowPercent(), l.relativeChange().ciHighPercent()),
                    Display.level(analysis.options().confidenceLevel()),
                    Display.value(l.halfWidthPercent()).strip() + "%", Display.value(Math.abs(l.t())).strip(),
                    Math.abs(l.t()) >= l.tBoundary() ? "≥" : "<", Display.value(l.tBoundary()).strip(),
                    futilityBound(l.tFutility()), SequentialStopping.outcome(target, l.halfWidthPercent(),
                            l.outcome())) + adjusted();
        }

        /** The look's futility bound for |t|, in parentheses after its efficacy boundary; nothing without one. */
        private static String futilityBound(double tFutility) {
            if (Double.isNaN(tFutility)) {
                return "";
            }
            return " (futility bound " + (Double.isInfinite(tFutility) ? "∞" : Display.value(tFutility).strip())
                    + ")";
        }

        /**
         * At the look that ends the target: its estimate adjusted for stopping, median-unbiased, with the stage-wise
         * interval ({@link SequentialLook#stagewise}); nothing at any other look.
         */
        private String adjusted() {
            if (!ending) {
                return "";
            }
            double confidence = analysis.options().confidenceLevel();
            RelativeChange adjusted = look.stagewise(confidence);
            return Double.isNaN(adjusted.percent()) ? "" : "; adjusted for stopping " + Display.percent(
                    adjusted.percent()) + " " + Display.percentInterval(adjusted.ciLowPercent(),
                    adjusted.ciHighPercent()) + " stage-wise " + Display.level(confidence) + " CI";
        }

        /** The target with its state: what the stop reason says of it. */
        String summary() {
            SequentialLook l = look;
            return SequentialStopping.summary(target, l.look(), l.pairs(), l.relativeChange().percent(),
                    l.relativeChange().ciLowPercent(), l.relativeChange().ciHighPercent(), l.halfWidthPercent(),
                    l.outcome());
        }
    }
}
