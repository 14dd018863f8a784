package io.perflab.paired;

import static io.perflab.paired.PairedFixtures.failedPair;
import static io.perflab.paired.PairedFixtures.pair;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.runner.experiment.PairResult;
import io.perflab.runner.experiment.PairStoppingRule;
import io.perflab.runner.trial.TrialResult;
import io.perflab.stats.Display;
import io.perflab.stats.RelativeChange;
import io.perflab.stats.SequentialLook;
import io.perflab.stats.SequentialPlan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SequentialStoppingTests {

    private static final String CPU = "cpu_us_per_req";
    /** The change's windows: −5 % with noise of about ±0.5 % from pair to pair. */
    private static final double[] NOISE = {0.004, -0.006, 0.002, -0.001, 0.005, -0.004, 0.001, -0.003, 0.006, -0.002};

    private final AtomicLong clock = new AtomicLong();
    private final List<List<SequentialStopping.Look>> printed = new ArrayList<>();

    @Test
    void aClearChangeIsSettledAtAnEarlyLookAndTheReasonSaysHowFarItGot() {
        SequentialStopping rule = rule(List.of(SequentialStopping.Target.parse(CPU + ":settled")), Optional.empty());

        PairStoppingRule.Decision decision = run(rule, 10, -0.05);

        assertThat(decision.stop()).isTrue();
        SequentialStopping.Look last = printed.get(printed.size() - 1).get(0);
        assertThat(last.look().outcome()).isEqualTo(SequentialLook.Outcome.SIGNIFICANT);
        assertThat(last.look().pairs()).isLessThan(10);
        assertThat(rule.ending()).contains(SequentialStopping.Ending.SETTLED);
        assertThat(decision.reason()).startsWith("every target is settled: cpu_us_per_req -5.")
                .contains("at look " + last.look().look() + " (" + last.look().pairs() + " pairs): significant at α");
        assertThat(last.describe()).startsWith("look " + last.look().look() + " (" + last.look().pairs()
                + " pairs, ").contains("of 10): cpu_us_per_req -5.", "repeated 95% CI", "→ significant at α");
        // the look that settles it gives the estimate adjusted for stopping; a look that goes on does not
        RelativeChange adjusted = last.look().stagewise(0.95);
        assertThat(last.describe()).endsWith("; adjusted for stopping " + Display.percent(adjusted.percent()) + " "
                + Display.percentInterval(adjusted.ciLowPercent(), adjusted.ciHighPercent()) + " stage-wise 95% CI");
        assertThat(printed.get(1).get(0).look().stop()).isFalse();
        assertThat(printed.get(1).get(0).describe()).doesNotContain("adjusted");
        // one look per pair from the second on
        assertThat(printed.get(0)).isEmpty();
        assertThat(rule.looks()).hasSize(printed.size());
    }

    @Test
    void onlyTheLookThatSettlesATargetCarriesTheEstimateAdjustedForStopping() {
        // a second target, on a metric that does not change, keeps the rule looking at CPU per call after it has
        // settled
        SequentialStopping rule = rule(List.of(SequentialStopping.Target.parse(CPU + ":settled"),
                SequentialStopping.Target.parse("sys_cpu_us_per_req:settled")), Optional.empty());

        List<PairResult> pairs = new ArrayList<>();
        PairStoppingRule.Decision decision = PairStoppingRule.Decision.CONTINUE;
        for (int i = 0; i < 10 && !decision.stop(); i++) {
            pairs.add(alsoMeasuring(pair(i, CPU, new double[] {50}, new double[] {50 * (0.95 + NOISE[i])}),
                    "sys_cpu_us_per_req", 20 * (1 + NOISE[(i + 3) % NOISE.length])));
            decision = rule.afterPair(pairs);
        }

        List<SequentialStopping.Look> looks = printed.stream().flatMap(List::stream).toList();
        int first = 0;
        while (!looks.get(first).look().stop()) {
            assertThat(looks.get(first).ending()).isFalse();
            first++;
        }
        assertThat(looks.get(first).ending()).isTrue();
        assertThat(looks.get(first).describe()).contains("; adjusted for stopping ");
        assertThat(looks.subList(first + 1, looks.size())).isNotEmpty().allSatisfy(later -> {
            assertThat(later.look().outcome()).isEqualTo(SequentialLook.Outcome.SIGNIFICANT);
            assertThat(later.ending()).isFalse();
            assertThat(later.describe()).doesNotContain("adjusted");
        });
    }

    @Test
    void aPrecisionTargetStopsOnceTheRepeatedIntervalIsNarrowEnoughEvenWithoutAChange() {
        SequentialStopping rule = rule(List.of(SequentialStopping.Target.parse(CPU + ":2%")), Optional.empty());

        PairStoppingRule.Decision decision = run(rule, 10, 0.0);

        assertThat(decision.stop()).isTrue();
        assertThat(decision.reason()).contains("precise enough (±", "% ≤ ±2%)");
    }

    /**
     * A target with a smallest change settles where nothing changed once a change of that size is unlikely to be
     * found: the experiment ends there, before its last pair, and the reason says so. A clear change is still
     * found significant.
     */
    @Test
    void aTargetWithASmallestChangeStopsAsFutileWhereNothingChanged() {
        SequentialStopping rule = rule(List.of(SequentialStopping.Target.parse(CPU + ":mde=5%")), Optional.empty(),
                20);

        PairStoppingRule.Decision decision = run(rule, 20, 0.0);

        SequentialStopping.Look last = printed.get(printed.size() - 1).get(0);
        assertThat(last.look().outcome()).isEqualTo(SequentialLook.Outcome.FUTILE);
        assertThat(last.look().pairs()).isBetween(SequentialPlan.MIN_FUTILE_PAIRS, 19);
        assertThat(rule.ending()).contains(SequentialStopping.Ending.SETTLED);
        assertThat(decision.reason()).startsWith("every target is settled: cpu_us_per_req ")
                .contains("futile, a change of ±5% unlikely to be found by the last look");
        assertThat(printed.stream().flatMap(List::stream).filter(l -> l.look().pairs() < SequentialPlan
                .MIN_FUTILE_PAIRS)).allSatisfy(early -> {
                    assertThat(early.look().stop()).isFalse();
                    assertThat(early.look().tFutility()).as("no bound before the tenth pair").isNaN();
                    assertThat(early.describe()).doesNotContain("futility bound");
                });
        assertThat(Math.abs(last.look().t())).isLessThan(last.look().tFutility());
        assertThat(last.describe()).contains(" (futility bound " + Display.value(last.look().tFutility()).strip()
                + ") → futile");
        assertThat(printed.stream().flatMap(List::stream).filter(l -> l.look().outcome() == SequentialLook.Outcome
                .CONTINUE && l.look().pairs() >= SequentialPlan.MIN_FUTILE_PAIRS)).allSatisfy(going ->
                        assertThat(Math.abs(going.look().t())).isGreaterThanOrEqualTo(going.look().tFutility()));

        printed.clear();
        SequentialStopping changed = rule(List.of(SequentialStopping.Target.parse(CPU + ":mde=5%")),
                Optional.empty(), 20);
        run(changed, 20, -0.05);
        assertThat(printed.get(printed.size() - 1).get(0).look().outcome())
                .isEqualTo(SequentialLook.Outcome.SIGNIFICANT);
    }

    @Test
    void theBudgetStopsTheExperimentWhenOneMorePairWouldOverrunIt() {
        SequentialStopping rule = rule(List.of(SequentialStopping.Target.parse(CPU + ":settled")),
                Optional.of(Duration.ofMinutes(1)));
        List<PairResult> pairs = new ArrayList<>();
        PairStoppingRule.Decision decision = PairStoppingRule.Decision.CONTINUE;
        for (int i = 0; i < 10 && !decision.stop(); i++) {
            pairs.add(pair(i, CPU, new double[] {50, 50}, new double[] {50 * (1 + NOISE[i]), 50 * (1 + NOISE[i])}));
            clock.addAndGet(Duration.ofSeconds(20).toNanos());
            decision = rule.afterPair(pairs);
        }

        // 20 s per pair: after 2 pairs (40 s) a third ends at 60 s, within the minute; after 3 another would not
        assertThat(pairs).hasSize(3);
        assertThat(rule.ending()).contains(SequentialStopping.Ending.BUDGET);
        assertThat(decision.reason()).startsWith("the time budget of 1 min would be overrun by another pair after 3 "
                + "pairs: cpu_us_per_req");
        assertThat(printed.get(2).get(0).look().outcome()).isEqualTo(SequentialLook.Outcome.LAST_LOOK);
    }

    @Test
    void withABudgetAlphaIsSpentOverThePairsItAllowsNotAllThatWereAskedFor() {
        SequentialStopping rule = rule(List.of(SequentialStopping.Target.parse(CPU + ":settled")),
                Optional.of(Duration.ofMinutes(2)));
        List<PairResult> pairs = new ArrayList<>();
        PairStoppingRule.Decision decision = run(rule, 10, 0.0, 20, pairs);

        // a pair costs 20 s (PairedFixtures), so 2 minutes allow 6 of the 10 asked for: the looks are 2..6 of 6
        assertThat(rule.plannedPairs()).isEqualTo(6);
        assertThat(pairs).hasSize(6);
        assertThat(printed.get(1).get(0).describe()).startsWith("look 1 (2 pairs, 33 % of 6)");
        SequentialLook last = printed.get(5).get(0).look();
        assertThat(last.outcome()).isEqualTo(SequentialLook.Outcome.LAST_LOOK);
        assertThat(last.informationFraction()).isEqualTo(1.0);
    }

    @Test
    void theExperimentStopsAtTheLastLookOfThePlanEvenIfTheBudgetAllowsAnotherPair() {
        SequentialStopping rule = rule(List.of(SequentialStopping.Target.parse(CPU + ":settled")),
                Optional.of(Duration.ofMinutes(2)));
        List<PairResult> pairs = new ArrayList<>();
        PairStoppingRule.Decision decision = run(rule, 10, 0.0, 10, pairs);

        // the first pair's 20 s fix N at 6; the clock's 10 s a pair would leave time for more, which no look could use
        assertThat(rule.plannedPairs()).isEqualTo(6);
        assertThat(pairs).hasSize(6);
        assertThat(printed.get(5).get(0).look().outcome()).isEqualTo(SequentialLook.Outcome.LAST_LOOK);
        assertThat(rule.ending()).contains(SequentialStopping.Ending.LAST_LOOK);
        assertThat(decision.reason()).startsWith("α is spent: the look at 6 pairs was the plan's last, and another "
                + "pair could change no verdict: cpu_us_per_req");
    }

    /**
     * A budget of 10 minutes over pairs of 20 s allows 30 pairs, but the plan's most pairs are 10: the experiment ends
     * at the tenth, and its reason says how many the budget would have allowed and how to spend it.
     */
    @Test
    void aStopAtTheMostPairsSaysHowManyTheBudgetWouldHaveAllowed() {
        SequentialStopping rule = rule(List.of(SequentialStopping.Target.parse(CPU + ":settled")),
                Optional.of(Duration.ofMinutes(10)));
        List<PairResult> pairs = new ArrayList<>();

        PairStoppingRule.Decision decision = run(rule, 10, 0.0, 20, pairs);

        assertThat(pairs).hasSize(10);
        assertThat(decision.reason()).startsWith("α is spent: the look at 10 pairs was the plan's last")
                .endsWith("(the budget of 10 min would have allowed about 30 pairs at the first pair's cost; the "
                        + "plan's most pairs, 10, ended the experiment first: ask for more pairs to spend the budget)");
        SequentialStopping within = rule(List.of(SequentialStopping.Target.parse(CPU + ":settled")),
                Optional.of(Duration.ofMinutes(2)));
        assertThat(run(within, 10, 0.0, 20, new ArrayList<>()).reason()).doesNotContain("would have allowed");
    }

    @Test
    void withoutABudgetThePlanIsThePairsAskedFor() {
        SequentialStopping rule = rule(List.of(SequentialStopping.Target.parse(CPU + ":settled")), Optional.empty());

        run(rule, 3, 0.0);

        assertThat(rule.plannedPairs()).isEqualTo(10);
        assertThat(printed.get(1).get(0).describe()).startsWith("look 1 (2 pairs, 20 % of 10)");
    }

    @Test
    void aFailedPairMakesNoNewLook() {
        SequentialStopping rule = rule(List.of(SequentialStopping.Target.parse(CPU + ":settled")), Optional.empty());
        List<PairResult> pairs = new ArrayList<>(List.of(pair(0, CPU, new double[] {50}, new double[] {49}),
                pair(1, CPU, new double[] {50}, new double[] {48})));
        rule.afterPair(pairs);
        pairs.add(failedPair(2));

        PairStoppingRule.Decision decision = rule.afterPair(pairs);

        assertThat(decision.stop()).isFalse();
        assertThat(printed).hasSize(2);
        assertThat(printed.get(1)).isEmpty();
    }

    @Test
    void targetsAreParsedStrictly() {
        assertThat(SequentialStopping.Target.parse("cpu_us_per_req:1.5%"))
                .isEqualTo(new SequentialStopping.Target(CPU, 1.5));
        assertThat(SequentialStopping.Target.parse("ctx_switches_per_req:settled").halfWidthPercent()).isZero();
        assertThat(SequentialStopping.Target.parse("cpu_us_per_req:1.5%")).hasToString("cpu_us_per_req:1.5%");
        assertThatThrownBy(() -> SequentialStopping.Target.parse("cpu_us_per_req"))
                .hasMessageContaining("a target is METRIC:PERCENT%, METRIC:settled or METRIC:mde=PERCENT%");
        assertThatThrownBy(() -> SequentialStopping.Target.parse("cpu_us_per_req:-1%"))
                .hasMessageContaining("a target's precision is a percentage > 0, 'settled' or mde=PERCENT%, got '-1%'");
        assertThat(SequentialStopping.Target.parse("cpu_us_per_req:mde=2%"))
                .isEqualTo(new SequentialStopping.Target(CPU, 0, 2)).hasToString("cpu_us_per_req:mde=2%");
        assertThat(SequentialStopping.Target.parse("cpu_us_per_req:MDE=2.5")).hasToString("cpu_us_per_req:mde=2.5%");
        for (String bad : List.of("mde=0%", "mde=-2%", "mde=2000%", "mde=x", "mde=")) {
            assertThatThrownBy(() -> SequentialStopping.Target.parse(CPU + ":" + bad)).as(bad)
                    .hasMessageContaining("a target's smallest change (mde=) is a percentage above 0 and at most "
                            + "1000, e.g. mde=2%, got '" + bad + "'");
        }
        assertThatThrownBy(() -> new SequentialStopping(List.of(), 10, 0.05, Optional.empty(), clock::get, l -> { }))
                .hasMessage("a stopping rule needs a target or a budget");
    }

    /**
     * A target is stored as its text: one rounded to four digits read back as another half-width (0.12345 % as
     * 0.1235 %), or as no number at all (1.7976e308 % as 1.798e+308 %, which overflows), and every read of its
     * experiment failed.
     */
    @Test
    void aTargetsTextReadsBackAsTheVeryTargetItWasMadeFrom() {
        for (String text : List.of("1.7976e308%", "0.12345%", "1e-7%", "4.9e-324%", "123456789.125%", "1%", "2.50%",
                "settled")) {
            SequentialStopping.Target target = SequentialStopping.Target.parse(CPU + ":" + text);

            assertThat(SequentialStopping.Target.parse(target.toString())).as(text + " → " + target)
                    .isEqualTo(target);
        }
        assertThat(SequentialStopping.Target.parse(CPU + ":0.12345%")).hasToString(CPU + ":0.12345%");
        assertThat(SequentialStopping.Target.parse(CPU + ":1%")).hasToString(CPU + ":1%");
        assertThat(SequentialStopping.Target.parse(CPU + ":2.50%")).hasToString(CPU + ":2.5%");
    }

    @Test
    void aResumedRuleGoesOnFromItsEarlierLooksOverTheSameNumberOfPairs() {
        List<PairResult> pairs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            pairs.add(pair(i, CPU, new double[] {50}, new double[] {50 * (1 - 0.001 + NOISE[i])}));
        }
        // the first run looked after pairs 2 and 3, spending α over 6 pairs (what its budget allowed)
        SequentialStopping resumed = rule(List.of(SequentialStopping.Target.parse(CPU + ":settled")),
                Optional.of(Duration.ofMinutes(10))).continuing(java.util.Map.of(CPU, List.of(2, 3)), 6);

        resumed.afterPair(pairs);

        SequentialLook look = printed.get(0).get(0).look();
        assertThat(look.look()).isEqualTo(3);
        assertThat(look.pairs()).isEqualTo(4);
        assertThat(look.informationFraction()).isEqualTo(4 / 6.0);
        assertThat(resumed.plannedPairs()).isEqualTo(6);
        assertThat(rule(List.of(SequentialStopping.Target.parse(CPU + ":settled")), Optional.empty())
                .continuing(java.util.Map.of(), 6).plannedPairs()).as("nothing to go on from").isEqualTo(10);
    }

    @Test
    void aRuleGoingOnFromStoredLooksKeepsTheTargetsTheySettledSettled() {
        List<PairResult> pairs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            pairs.add(pair(i, CPU, new double[] {50}, new double[] {50 * (1 - 0.05 + NOISE[i])}));
        }
        // a rule rebuilt from the store after a look that settled the only target (the stop not yet recorded)
        SequentialStopping rebuilt = rule(List.of(SequentialStopping.Target.parse(CPU + ":settled")), Optional.empty())
                .continuing(List.of(new SequentialStopping.EarlierLook(CPU, 1, 2, -5.2, -9.1, -1.1, 4.3,
                        SequentialLook.Outcome.SIGNIFICANT)), 10);

        PairStoppingRule.Decision decision = rebuilt.afterPair(pairs);

        assertThat(decision.stop()).isTrue();
        assertThat(decision.reason()).isEqualTo("every target is settled: cpu_us_per_req -5.20% [-9.10%, -1.10%] "
                + "at look 1 (2 pairs): significant at α despite the looks");
        assertThat(printed.get(0)).singleElement().satisfies(l -> assertThat(l.look().look()).isEqualTo(2));
    }

    private SequentialStopping rule(List<SequentialStopping.Target> targets, Optional<Duration> budget) {
        return rule(targets, budget, 10);
    }

    private SequentialStopping rule(List<SequentialStopping.Target> targets, Optional<Duration> budget,
                                    int maxPairs) {
        return new SequentialStopping(targets, maxPairs, 0.05, budget, clock::get, printed::add);
    }

    /** Pairs of one window, the change's CPU per call {@code change} off the baseline's, until the rule stops. */
    private PairStoppingRule.Decision run(SequentialStopping rule, int most, double change) {
        return run(rule, most, change, 0, new ArrayList<>());
    }

    /** Up to {@code most} pairs of one window a side into {@code pairs}, each {@code secondsPerPair} on the clock. */
    private PairStoppingRule.Decision run(SequentialStopping rule, int most, double change, int secondsPerPair,
                                          List<PairResult> pairs) {
        PairStoppingRule.Decision decision = PairStoppingRule.Decision.CONTINUE;
        for (int i = 0; i < most && !decision.stop(); i++) {
            pairs.add(pair(i, CPU, new double[] {50}, new double[] {50 * (1 + change + NOISE[i % NOISE.length])}));
            clock.addAndGet(Duration.ofSeconds(secondsPerPair).toNanos());
            decision = rule.afterPair(pairs);
        }
        return decision;
    }

    @Test
    void aTargetWhoseMetricNoWindowReportsStopsAtTheFirstPairSayingWhy() {
        SequentialStopping rule = rule(List.of(SequentialStopping.Target.parse(CPU + ":settled"),
                SequentialStopping.Target.parse("instructions_per_req:settled")), Optional.empty());
        PairResult first = pair(0, CPU, new double[] {50}, new double[] {47.5});
        List<TrialResult> told = first.results().stream().map(r -> new TrialResult(r.variant(), r.ordinal(),
                r.status(), r.start(), r.end(), r.pid(), r.metrics(), Map.of("hardware_not_counted", "this host "
                + "gives no hardware counters (errno 2)"), r.error(), r.pair())).toList();

        PairStoppingRule.Decision decision = rule.afterPair(List.of(new PairResult(0, first.status(),
                first.placement(), told, first.start(), first.end(), first.setup(), first.measuring(), null)));

        assertThat(decision.stop()).isTrue();
        assertThat(rule.ending()).contains(SequentialStopping.Ending.UNMEASURED);
        assertThat(decision.reason()).isEqualTo("instructions_per_req is not measured here, so its target can never "
                + "be settled: no window of the 1 pair so far reported it (hardware_not_counted: this host gives no "
                + "hardware counters (errno 2)); the other metrics are compared as measured");
        assertThat(printed).isEmpty();
    }

    @Test
    void aTargetOfAMetricOnlySomeWindowsReportIsLookedAtAsUsualAndNothingStopsBeforeAnyWindowIsMeasured() {
        SequentialStopping rule = rule(List.of(SequentialStopping.Target.parse("wall_ms:settled")), Optional.empty());

        assertThat(rule.afterPair(List.of(failedPair(0))).stop()).as("nothing measured yet").isFalse();
        PairStoppingRule.Decision decision = rule.afterPair(List.of(failedPair(0),
                pair(1, "wall_ms", new double[] {10}, new double[] {10.1})));
        assertThat(decision.stop()).isFalse();
        assertThat(rule.ending()).isEmpty();
    }

    /** {@code p} with every window also measuring {@code value} of {@code metric}. */
    private static PairResult alsoMeasuring(PairResult p, String metric, double value) {
        List<TrialResult> results = p.results().stream().map(r -> {
            Map<String, Double> metrics = new java.util.LinkedHashMap<>(r.metrics());
            metrics.put(metric, value);
            return new TrialResult(r.variant(), r.ordinal(), r.status(), r.start(), r.end(), r.pid(), metrics,
                    r.environment(), r.error(), r.pair());
        }).toList();
        return new PairResult(p.index(), p.status(), p.placement(), results, p.start(), p.end(), p.setup(),
                p.measuring(), p.error());
    }

    /** ab --target and a stored target quoted what they could not read as it was, an escape included. */
    @Test
    void aTargetThatCannotBeReadIsQuotedWithItsHiddenCharactersEscaped() {
        assertThatThrownBy(() -> SequentialStopping.Target.parse("cpu\u001B[2J\u202E"))
                .hasMessageEndingWith("got 'cpu\\u001B[2J\\u202E'");
        assertThatThrownBy(() -> SequentialStopping.Target.parse("cpu:1\u001B\u202E%"))
                .hasMessageEndingWith("got '1\\u001B\\u202E%' in 'cpu:1\\u001B\\u202E%'");
        assertThatThrownBy(() -> PairedInput.target("cpu\u001B\u202E:1%", List.of("cpu_us_per_req")))
                .hasMessageStartingWith("unknown metric 'cpu\\u001B\\u202E'");
        assertThatThrownBy(() -> PairedInput.budget("1\u001B\u202Em")).hasMessage(
                "takes a duration such as 10m, 90s or 1h30m, got '1\\u001B\\u202Em'");
    }

}
