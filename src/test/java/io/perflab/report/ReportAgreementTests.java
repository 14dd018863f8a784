package io.perflab.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import io.perflab.display.Format;
import io.perflab.experiment.ExperimentKind;
import io.perflab.experiment.ExperimentSpec;
import io.perflab.experiment.ExperimentStatus;
import io.perflab.experiment.PairedStopping;
import io.perflab.experiment.SequentialLookRepository;
import io.perflab.experiment.StoredExperiments;
import io.perflab.paired.PairedFixtures;
import io.perflab.paired.SequentialStopping;
import io.perflab.runner.experiment.CommandVariant;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.PairPlacement;
import io.perflab.runner.experiment.PairResult;
import io.perflab.runner.experiment.PairStoppingRule;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.trial.PairPosition;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import io.perflab.stats.Alternative;
import io.perflab.stats.Display;
import io.perflab.stats.RelativeChange;
import io.perflab.stats.RobustPairedChange;
import io.perflab.stats.SequentialLook;
import io.perflab.stats.SequentialPlan;
import io.perflab.stats.TTest;
import io.perflab.stats.TTestResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.DoubleStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * One experiment read in every place a person reads it — the page, the three report formats and the API — says the
 * same: the same design, the same figures and the same caveats.
 */
class ReportAgreementTests extends ReportTestSupport {

    /** A duet of {@code pairs} planned pairs of three windows, monitor against notification, with nothing stored. */
    private long insertDuet(String name, int pairs, ExperimentStatus status) {
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(Map.of("completion", "monitor"), Workload.DEFAULTS),
                EngineVariant.of(Map.of("completion", "notification"), Workload.DEFAULTS), pairs)
                .withDesign(ExperimentDesign.DUET, 3);
        return StoredExperiments.insert(store, new ExperimentSpec(name, null, ExperimentKind.ENGINE, null, plan),
                status, "tester", ReportFixtures.T0);
    }

    /**
     * A duet of five pairs of three windows, stopped by its rule: CPU per call 3 % lower with the change, requests
     * per second unchanged, and context switches the same in every window, so that the first metric listed (a
     * headline one) cannot be compared.
     */
    private long duet() {
        long id = insertDuet("duet", 6, ExperimentStatus.COMPLETED);
        SplittableRandom random = new SplittableRandom(1);
        for (int pair = 0; pair < 5; pair++) {
            List<TrialResult> results = new ArrayList<>();
            Instant start = ReportFixtures.T0.plusSeconds(20L * pair);
            for (int window = 0; window < 3; window++) {
                for (VariantName side : VariantName.values()) {
                    boolean with = side == VariantName.WITH;
                    Map<String, Double> metrics = new LinkedHashMap<>();
                    metrics.put("cpu_us_per_req", 40 * (with ? 0.97 : 1) * (1 + (random.nextDouble() - 0.5) / 50));
                    metrics.put("ctx_switches_per_req", 4.0);
                    metrics.put("reqs_per_sec", 50_000 * (1 + (random.nextDouble() - 0.5) / 50));
                    results.add(new TrialResult(side.label(), (pair * 10 + window) * 2 + side.ordinal(),
                            TrialStatus.OK, start, start.plusSeconds(3), 100 + side.ordinal(), metrics,
                            Map.of("pair_setup_seconds", "14.000", "measuring_share_seconds", "1.500"), null,
                            new PairPosition(pair, window, with ? "1" : "0", 1_000L * window, 0L, !with)));
                }
            }
            store.savePair(id, new PairResult(pair, TrialStatus.OK, new PairPlacement("0", "1", VariantName.WITHOUT),
                    results, start, start.plusSeconds(20), Duration.ofSeconds(14), Duration.ofSeconds(6), null));
        }
        store.recordStopReason(id, "every target is settled");
        return id;
    }

    @Autowired
    SequentialLookRepository looks;

    /**
     * A duet of five pairs of one window with the target {@code cpu_us_per_req:settled}, its stopping rule looking
     * after every pair as the service's does (O'Brien–Fleming, looks at 2, 3, 4 and 5 pairs): CPU per call's pair
     * log ratios are 0.010, 0.030, 0.020, -0.002 and 0.020, so that the last look does not cross its boundary
     * (|t| = 2.879 < 2.943) although the t-test that ignores the looks gives p = 0.045; requests per second are not
     * a target.
     */
    private long sequentialDuet() {
        return sequentialDuet("sequential duet", new double[] {0.010, 0.030, 0.020, -0.002, 0.020}, 5,
                "cpu_us_per_req:settled");
    }

    /**
     * A duet of one window per pair planned for {@code plannedPairs} pairs with {@code target}, its rule looking after
     * every pair as the service's does: CPU per call's pair log ratios are {@code logRatios}, up to the pair after
     * which the rule stops it (its reason then stored as the service stores it).
     */
    private long sequentialDuet(String name, double[] logRatios, int plannedPairs, String target) {
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(Map.of("completion", "monitor"), Workload.DEFAULTS),
                EngineVariant.of(Map.of("completion", "notification"), Workload.DEFAULTS), plannedPairs)
                .withDesign(ExperimentDesign.DUET, 1);
        List<SequentialStopping.Target> targets = List.of(SequentialStopping.Target.parse(target));
        long id = StoredExperiments.insert(store, new ExperimentSpec(name, null, ExperimentKind.ENGINE,
                null, plan, new PairedStopping(targets, Optional.empty())), ExperimentStatus.COMPLETED, "tester",
                ReportFixtures.T0);
        SequentialStopping rule = new SequentialStopping(targets, plannedPairs, 0.05, Optional.empty(),
                () -> 0L, made -> looks.save(id, made));
        SplittableRandom random = new SplittableRandom(2);
        List<PairResult> stored = new ArrayList<>();
        for (int pair = 0; pair < logRatios.length; pair++) {
            List<TrialResult> results = new ArrayList<>();
            Instant start = ReportFixtures.T0.plusSeconds(20L * pair);
            for (VariantName side : VariantName.values()) {
                boolean with = side == VariantName.WITH;
                Map<String, Double> metrics = new LinkedHashMap<>();
                metrics.put("cpu_us_per_req", 40 * (with ? Math.exp(logRatios[pair]) : 1));
                metrics.put("reqs_per_sec", 50_000 * (1 + (random.nextDouble() - 0.5) / 50));
                results.add(new TrialResult(side.label(), pair * 2 + side.ordinal(), TrialStatus.OK, start,
                        start.plusSeconds(3), 100 + side.ordinal(), metrics, Map.of(), null,
                        new PairPosition(pair, 0, with ? "1" : "0", 0L, 0L, !with)));
            }
            PairResult done = new PairResult(pair, TrialStatus.OK, new PairPlacement("0", "1", VariantName.WITHOUT),
                    results, start, start.plusSeconds(20), Duration.ofSeconds(14), Duration.ofSeconds(6), null);
            store.savePair(id, done);
            stored.add(done);
            PairStoppingRule.Decision decision = rule.afterPair(stored);
            if (decision.stop()) {
                if (pair < plannedPairs - 1) {
                    store.recordStopReason(id, decision.reason());
                }
                break;
            }
        }
        return id;
    }

    /**
     * A duet of five pairs of three windows whose pair 1 failed: CPU per call 3 % lower with the change; the change
     * counted no garbage collection in pair 3's window 1, which leaves that metric without a log ratio.
     */
    private long duetWithAFailedPair() {
        long id = insertDuet("duet with a failed pair", 5, ExperimentStatus.COMPLETED);
        SplittableRandom random = new SplittableRandom(3);
        for (int pair = 0; pair < 5; pair++) {
            if (pair == 1) {
                store.savePair(id, PairedFixtures.failedPair(1));
                continue;
            }
            List<TrialResult> results = new ArrayList<>();
            Instant start = ReportFixtures.T0.plusSeconds(20L * pair);
            for (int window = 0; window < 3; window++) {
                for (VariantName side : VariantName.values()) {
                    boolean with = side == VariantName.WITH;
                    Map<String, Double> metrics = new LinkedHashMap<>();
                    metrics.put("cpu_us_per_req", 40 * (with ? 0.97 : 1) * (1 + (random.nextDouble() - 0.5) / 50));
                    metrics.put("gc_count", with && pair == 3 && window == 1 ? 0.0 : 2 + random.nextDouble());
                    // ordinals apart from the failed pair's (4 and 5)
                    results.add(new TrialResult(side.label(), 100 + (pair * 10 + window) * 2 + side.ordinal(),
                            TrialStatus.OK, start, start.plusSeconds(3), 100 + side.ordinal(), metrics, Map.of(),
                            null, new PairPosition(pair, window, with ? "1" : "0", 1_000L * window, 0L, !with)));
                }
            }
            store.savePair(id, new PairResult(pair, TrialStatus.OK, new PairPlacement("0", "1", VariantName.WITHOUT),
                    results, start, start.plusSeconds(20), Duration.ofSeconds(14), Duration.ofSeconds(6), null));
        }
        return id;
    }

    /**
     * An entry of the environment that varies from run to run is said alike on the page and in the HTML report: the
     * page gave its first value and a count ("0.5 … (6 different values across runs)"), the report its range.
     */
    @Test
    void anEnvironmentEntryThatVariesPerRunIsSaidAlikeOnThePageAndInTheReport() throws Exception {
        long id = ReportFixtures.store(store, jdbc, ReportFixtures.Shape.seedLike("environment"), 4);

        String page = get("/experiments/" + id, "text/html").body();
        String html = get("/api/v1/experiments/" + id + "/report.html").body();

        // load_average 0.50, 0.51, … of the 7 OK runs (the last 'without' run failed)
        String said = "varies per run: 0.5 to 0.57 (7 different values)";
        assertThat(page).contains(">load_average</th>", said).doesNotContain("different values across runs");
        assertThat(html).contains(">load_average</th>", said);
    }

    /**
     * A paired experiment its rule stopped says so by the rule's own reason, which tells where (at an early look, or
     * at the plan's last): not "before its last planned pair", which a stop at the last look is not.
     */
    @Test
    void aStopByTheRuleIsGivenInTheRulesOwnWordsInEveryPlace() throws Exception {
        long id = duet();

        String page = get("/experiments/" + id, "text/html").body();
        String txt = get("/api/v1/experiments/" + id + "/report.txt").body();
        String md = get("/api/v1/experiments/" + id + "/report.md").body();

        for (String shown : List.of(page, txt, md)) {
            assertThat(shown).contains("Stopped by its stopping rule: every target is settled")
                    .doesNotContain("before its last planned pair");
        }
    }

    @Test
    void aPairIsNamedByItsRecordedIndexInEveryPlaceAfterAFailedPair() throws Exception {
        long id = duetWithAFailedPair();
        // from 0, as the experiment's samples and perflab ab's progress lines name them ("pair 3 window 1")
        String zero = "pair 3, window 1: "; // 'with' is 0.0: a log ratio needs positive values

        String page = get("/experiments/" + id, "text/html").body();
        String html = get("/api/v1/experiments/" + id + "/report.html").body();
        for (String shown : List.of(page, html)) {
            assertThat(shown).contains(zero);
            assertThat(shown).as("the paired plot's points are pairs 0, 2, 3 and 4")
                    .contains("<title>pair 0: ", "<title>pair 2: ", "<title>pair 3: ", "<title>pair 4: ")
                    .doesNotContain("<title>pair 1: ");
        }
        for (String report : List.of("md", "txt")) {
            assertThat(get("/api/v1/experiments/" + id + "/report." + report).body()).contains(zero);
        }
        JsonNode cpu = json.readTree(get("/api/v1/experiments/" + id, "application/json").body()).get("results")
                .get(0);
        assertThat(cpu.get("metric").asString()).isEqualTo("cpu_us_per_req");
        assertThat(cpu.get("paired").get("pairIndexes").toString()).isEqualTo("[0,2,3,4]");
    }

    @Test
    void aTargetOfASequentialRunIsJudgedByItsLastLookInEveryPlace() throws Exception {
        long id = sequentialDuet();
        String adjusted = "Δ % and its CI adjusted for 4 looks (O";
        String repeated = "[-0.03%, +3.21%]";
        String notTheRules = "looks at cpu_us_per_req, not at this metric";

        String page = get("/experiments/" + id, "text/html").body();
        String html = get("/api/v1/experiments/" + id + "/report.html").body();
        String md = get("/api/v1/experiments/" + id + "/report.md").body();
        String txt = get("/api/v1/experiments/" + id + "/report.txt").body();
        for (String shown : List.of(page, html, md, txt)) {
            assertThat(shown).contains(adjusted, repeated, notTheRules);
        }
        for (String shown : List.of(page, html)) {
            assertThat(shown).contains(">t-test ignoring the looks</dt>", "[+0.06%, +3.11%], p = 0.04506");
        }
        // the estimate adjusted for stopping at the look that ended the target (the last, at 5 of 5 pairs)
        RelativeChange stagewise = SequentialPlan.of(0.05, 5).look(new int[] {2, 3, 4, 5},
                new double[] {0.010, 0.030, 0.020, -0.002, 0.020}, false).stagewise(0.95);
        String adjustedEstimate = Format.percent(stagewise.percent()) + " "
                + Format.percentInterval(stagewise.ciLowPercent(), stagewise.ciHighPercent());
        for (String shown : List.of(page, html)) {
            assertThat(shown).contains(">estimate adjusted for stopping</dt>", adjustedEstimate
                    + ", median-unbiased by the stage-wise ordering of the looks");
        }
        assertThat(txt).contains("; adjusted for stopping " + adjustedEstimate + ", median-unbiased)");
        assertThat(md).contains("; adjusted for stopping " + adjustedEstimate.replace("[", "\\[").replace("]", "\\]")
                + ", median-unbiased)");
        assertThat(md).contains("| +1.57% | " + repeated + " | — | — | inconclusive |");
        assertThat(txt).contains("— inconclusive: +1.57%, 95% CI " + repeated + ":\n");

        JsonNode cpu = null;
        for (JsonNode metric : json.readTree(get("/api/v1/experiments/" + id, "application/json").body())
                .get("results")) {
            if (metric.get("metric").asString().equals("cpu_us_per_req")) {
                cpu = metric;
            }
        }
        assertThat(cpu).isNotNull();
        assertThat(cpu.get("verdict").asString()).isEqualTo("inconclusive");
        assertThat(cpu.get("ciLowPercent").asDouble()).isCloseTo(-0.03, within(5e-3));
        assertThat(cpu.get("holmPValue").isNull()).isTrue();
        JsonNode sequential = cpu.get("paired").get("sequential");
        assertThat(sequential.get("looks").asInt()).isEqualTo(4);
        assertThat(sequential.get("outcome").asString()).isEqualTo("LAST_LOOK");
        assertThat(sequential.get("pValueIgnoringLooks").asDouble()).isCloseTo(0.04506, within(1e-5));
        assertThat(sequential.get("adjustedPercent").asDouble()).isCloseTo(stagewise.percent(), within(1e-9));
        assertThat(sequential.get("adjustedCiLowPercent").asDouble()).isCloseTo(stagewise.ciLowPercent(),
                within(1e-9));
    }

    /**
     * A target with a smallest change that its rule found futile shows the bound |t| fell below, the same in every
     * place, as the plan computes it: in the looks' table and the last look's line on the page and in the exported
     * HTML with the verdict's reason, in the looks' lines of the text and Markdown reports, and in the API. Looks
     * before the tenth pair have no bound.
     */
    @Test
    void aFutileTargetShowsTheFutilityBoundItsLookFellBelowInEveryPlace() throws Exception {
        // CPU per call moves ±0.3 % around no change: with mde=0.3 % the look at 10 of 20 pairs is futile
        double[] logRatios = new double[20];
        for (int i = 0; i < logRatios.length; i++) {
            logRatios[i] = (i % 2 == 0 ? 0.003 : -0.003) * (1 + (i % 3) / 4.0);
        }
        long id = sequentialDuet("futile duet", logRatios, 20, "cpu_us_per_req:mde=0.3%");
        int[] pairsAtLooks = java.util.stream.IntStream.rangeClosed(2, 10).toArray();
        SequentialLook futile = SequentialPlan.of(0.05, 20).withSmallestChangePercent(0.3).look(pairsAtLooks,
                logRatios, false);
        assertThat(futile.outcome()).isEqualTo(SequentialLook.Outcome.FUTILE);
        assertThat(futile.tFutility()).isGreaterThan(Math.abs(futile.t())).isLessThan(futile.tBoundary());

        String page = get("/experiments/" + id, "text/html").body();
        String html = get("/api/v1/experiments/" + id + "/report.html").body();
        String md = get("/api/v1/experiments/" + id + "/report.md").body();
        String txt = get("/api/v1/experiments/" + id + "/report.txt").body();
        String bound = Format.statistic(futile.tFutility());
        assertThat(get("/experiments/" + sequentialDuet(), "text/html").body()).as("a settled target's looks")
                .contains("Sequential looks").doesNotContain(">futility bound</th>");
        for (String shown : List.of(page, html)) {
            assertThat(shown).contains(">futility bound</th>", "<td class=\"num\">" + bound + "</td>",
                    ", futility bound " + bound
                    + ", repeated CI ", "(|t| below its futility bound " + bound + ")");
        }
        String line = "(futility bound " + Display.value(futile.tFutility()).strip() + ") → futile, a change of "
                + "±0.3% unlikely to be found by the last look";
        for (String report : List.of(md, txt)) {
            assertThat(report).contains("look 9 (10 pairs, 50 % of 20)", line);
        }

        JsonNode experiment = json.readTree(get("/api/v1/experiments/" + id, "application/json").body());
        JsonNode stored = experiment.get("paired").get("looks");
        assertThat(stored.size()).isEqualTo(9);
        for (int k = 0; k < 8; k++) {
            assertThat(stored.get(k).get("tFutility").isNull()).as("look %d, before the tenth pair", k + 1).isTrue();
        }
        assertThat(stored.get(8).get("outcome").asString()).isEqualTo("FUTILE");
        assertThat(stored.get(8).get("tFutility").asDouble()).isCloseTo(futile.tFutility(), within(1e-12));
        JsonNode cpu = null;
        for (JsonNode metric : experiment.get("results")) {
            if (metric.get("metric").asString().equals("cpu_us_per_req")) {
                cpu = metric;
            }
        }
        assertThat(cpu).isNotNull();
        JsonNode sequential = cpu.get("paired").get("sequential");
        assertThat(sequential.get("outcome").asString()).isEqualTo("FUTILE");
        assertThat(sequential.get("tFutility").asDouble()).isCloseTo(futile.tFutility(), within(1e-12));
        assertThat(cpu.get("reason").asString()).contains("(|t| below its futility bound " + bound + ")");
    }

    /**
     * A command experiment whose variants run the same command and read its output in different formats, jmh and
     * gobench: four runs a side on host bench-1, each recording its own command line, but the last 'with' run, which
     * exited with status 1 on another host.
     */
    private long commandReadInTwoFormats() {
        ExperimentPlan plan = ExperimentPlan.of(
                new CommandVariant("./bench --out {output}", Optional.of("jmh"), Optional.empty(), Map.of()),
                new CommandVariant("./bench --out {output}", Optional.of("gobench"), Optional.empty(), Map.of()), 4);
        long id = StoredExperiments.insert(store, new ExperimentSpec("two formats", null, ExperimentKind.COMMAND, null,
                plan), ExperimentStatus.COMPLETED, "tester", ReportFixtures.T0);
        for (int ordinal = 0; ordinal < 8; ordinal++) {
            boolean with = ordinal % 2 == 1;
            boolean failed = ordinal == 7;
            Instant start = ReportFixtures.T0.plusSeconds(10L * ordinal);
            store.saveRun(id, new TrialResult(with ? "with" : "without", ordinal,
                    failed ? TrialStatus.FAILED : TrialStatus.OK, start, start.plusSeconds(2), 500 + ordinal,
                    Map.of("cpu_ms", failed ? 500.0 : (with ? 96.0 : 100.0) + NOISE[ordinal / 2],
                            "wall_ms", 120.0 + NOISE[ordinal / 2]),
                    Map.of("host", failed ? "crashed-host" : "bench-1", "command", "/bin/sh -c ./bench " + ordinal),
                    failed ? "command exited with status 1" : null));
        }
        return id;
    }

    /** A duet of four planned pairs whose only stored pair, pair 0, failed. */
    private long duetWithoutASuccessfulPair() {
        long id = insertDuet("duet without a pair", 4, ExperimentStatus.FAILED);
        store.savePair(id, PairedFixtures.failedPair(0));
        return id;
    }

    /** The comparison of {@code metric} as the API gives it. */
    private JsonNode result(long id, String metric) throws Exception {
        for (JsonNode c : json.readTree(get("/api/v1/experiments/" + id, "application/json").body()).get("results")) {
            if (c.get("metric").asString().equals(metric)) {
                return c;
            }
        }
        throw new AssertionError("no result for " + metric);
    }

    /** The four places a person reads experiment {@code id}: the page, and the HTML, Markdown and text reports. */
    private List<String> everyPlace(long id) throws Exception {
        return List.of(get("/experiments/" + id, "text/html").body(),
                get("/api/v1/experiments/" + id + "/report.html").body(),
                get("/api/v1/experiments/" + id + "/report.md").body(),
                get("/api/v1/experiments/" + id + "/report.txt").body());
    }

    @Test
    void theRRecipeOfAPairedReportRecomputesItsPairedResult() throws Exception {
        long id = duet();
        String html = get("/api/v1/experiments/" + id + "/report.html").body();

        assertThat(section(html, "samples")).contains("subset(d$runs, status == \"OK\")",
                        "t.test(tapply(log(w$v.x / w$v.y), w$pair, mean))")
                .doesNotContain("t.test(m$with, m$without)");
        JsonNode embedded = json.readTree(ReportControllerTests.scriptContent(html));
        assertThat(embedded.get("convention").asString()).contains("log(with/without)", "t.test(r)");
        // the recipe step by step: the OK runs' windows matched by pair and window, each pair's mean log ratio
        Map<Integer, Map<Integer, double[]>> pairs = new TreeMap<>();
        for (JsonNode run : embedded.get("runs")) {
            JsonNode value = run.get("metrics").get("cpu_us_per_req");
            if (run.get("status").asString().equals("OK") && value != null) {
                pairs.computeIfAbsent(run.get("pair").asInt(), p -> new TreeMap<>())
                        .computeIfAbsent(run.get("window").asInt(), w -> new double[2])
                        [run.get("variant").asString().equals("with") ? 0 : 1] = value.asDouble();
            }
        }
        double[] logRatios = pairs.values().stream().mapToDouble(windows -> windows.values().stream()
                .mapToDouble(w -> Math.log(w[0] / w[1])).average().orElseThrow()).toArray();
        TTestResult recomputed = TTest.oneSample(logRatios, Alternative.TWO_SIDED, 0.95);

        JsonNode cpu = result(id, "cpu_us_per_req");
        assertThat(logRatios).hasSize(5);
        assertThat(100 * Math.expm1(recomputed.difference()))
                .isCloseTo(cpu.get("percent").asDouble(), withinPercentage(1e-6));
        assertThat(recomputed.pValue()).isCloseTo(cpu.get("pValue").asDouble(), withinPercentage(1e-6));
    }

    @Test
    void aFailedPairIsCountedAndListedAsOnePair() throws Exception {
        long id = duetWithAFailedPair();
        String crashed = "the with JVM: crashed";

        List<String> shown = everyPlace(id);
        String page = shown.get(0);
        String html = shown.get(1);
        String md = shown.get(2);
        String txt = shown.get(3);
        // 5 pairs of 3 windows a variant: the failed pair is 6 runs of the progress, and 2 failed records
        assertThat(md).contains("1 failed pair, left out of the analysis whole: pair 1 (FAILED) " + crashed)
                .doesNotContain("(6 failed)", "2 failed runs");
        assertThat(txt).contains("\nFailed pairs (each left out of the analysis whole):\n  pair 1 (FAILED): "
                + crashed + "\n").doesNotContain("Failed runs:");
        assertThat(html).contains(">pairs stored</th>", ">5 of 5 (1 failed)</td>", "<h2>Failed pairs</h2>")
                .doesNotContain("(6 failed)", "<h2>Failed runs</h2>");
        assertThat(page).contains("<h2>Failed pairs</h2>", crashed).doesNotContain("<h2>Failed runs</h2>");
    }

    @Test
    void variantsThatDifferOnlyInHowTheirOutputIsReadShowItInEveryPlace() throws Exception {
        long id = commandReadInTwoFormats();

        List<String> shown = everyPlace(id);
        String page = shown.get(0);
        assertThat(page.substring(page.indexOf("<h2>What changed</h2>")))
                .contains("<code>metricsFormat</code>", "<code>jmh</code>", "<code>gobench</code>");
        assertThat(section(shown.get(1), "change")).contains("<th scope=\"row\">metricsFormat</th>")
                .doesNotContain("the same");
        assertThat(shown.get(2)).contains("| metricsFormat | jmh | gobench |");
        assertThat(shown.get(3)).contains("  metricsFormat: jmh -> gobench\n");
    }

    @Test
    void aCommandExperimentSaysHowItsRunsWereMeasuredInEveryPlace() throws Exception {
        long id = commandReadInTwoFormats();

        List<String> shown = everyPlace(id);
        String page = shown.get(0);
        String html = shown.get(1);
        String pageMethod = page.substring(page.indexOf("<details class=\"method\">"),
                page.indexOf("</details>", page.indexOf("<details class=\"method\">")));
        for (String method : List.of(pageMethod, section(html, "summary"), section(html, "methodology"),
                shown.get(2), shown.get(3))) {
            assertThat(method).contains("getrusage(RUSAGE_CHILDREN)", "read from its output, as jmh and gobench")
                    .doesNotContain("RUSAGE_SELF", "HdrHistogram", "fresh JVM");
        }
    }

    @Test
    void theEnvironmentShownIsThatOfTheSuccessfulRunsInThePageAndTheReport() throws Exception {
        long id = commandReadInTwoFormats();

        String page = get("/experiments/" + id, "text/html").body();
        String pageEnvironment = page.substring(page.indexOf("<details class=\"setup\">"),
                page.indexOf("</details>", page.indexOf("<details class=\"setup\">")));
        String html = get("/api/v1/experiments/" + id + "/report.html").body();
        for (String environment : List.of(pageEnvironment, section(html, "environment"))) {
            assertThat(environment).contains("<th scope=\"row\">host</th>", "bench-1")
                    .doesNotContain("crashed-host", "<th scope=\"row\">command</th>");
        }
    }

    @Test
    void aPairedDesignWithoutResultsSaysItNeedsPairs() throws Exception {
        long id = duetWithoutASuccessfulPair();

        for (String shown : everyPlace(id)) {
            assertThat(shown).contains("the paired analysis needs at least two successful pairs.")
                    .doesNotContain("each variant needs at least two successful runs");
        }
        assertThat(get("/api/v1/experiments/" + id + "/report.txt").body()).doesNotContain("Paired analysis");
    }

    /** The text of the HTML element whose id is {@code id}, up to the next section. */
    private static String section(String html, String id) {
        int start = html.indexOf("id=\"" + id + "\"");
        assertThat(start).as("section " + id).isNotNegative();
        int end = html.indexOf("<section", start + 1);
        return html.substring(start, end < 0 ? html.length() : end);
    }

    @Test
    void aPairedExperimentIsExplainedByItsPairedTestWhicheverMetricComesFirst() throws Exception {
        long id = duet();

        String html = get("/api/v1/experiments/" + id + "/report.html").body();
        String page = get("/experiments/" + id, "text/html").body();

        for (String shown : List.of(html, page)) {
            assertThat(shown).contains("<caption>Paired design: n counts pairs")
                    .doesNotContain("Welch two-sample t-test per metric", ">Welch t, df</dt>", ">runs for ±1 %</dt>",
                            "CI (Fieller)");
            // the column shows Welch's difference in the metric's units with its interval and its p
            assertThat(shown).contains(">Welch, ignoring the pairing: with − without [95% CI], p</th>")
                    .doesNotContain("Δ [CI], p", "95% CI of with − without, p");
        }
        assertThat(section(html, "summary")).doesNotContain("100·(mean(with) / mean(without) − 1)")
                .contains("100·(e<sup>mean</sup> − 1)");
        assertThat(section(html, "methodology"))
                .doesNotContain("Fieller", "TOST", "<strong>Welch's two-sided t-test</strong>")
                .contains("one-sample t-test of the pair log ratios", "100·(e<sup>mean</sup> − 1)",
                        "lies within <strong>±1%</strong>");
        assertThat(page).contains("one-sample t-test of the pair log ratios");
    }

    /**
     * Welch's column of the pairs table gave the interval of with − without and p but not the difference it
     * estimates, where the paired columns give the change beside its interval.
     */
    @Test
    void welchsColumnShowsTheDifferenceInTheMetricsUnitsBesideItsInterval() throws Exception {
        long id = sequentialDuet();
        // one window per pair, as sequentialDuet stores them: 'without' is 40 in every pair and 'with' 40·e^r, so
        // Welch's difference of the means is 40·(mean of e^r − 1), 0.6313 in the metric's units
        double difference = 40 * (DoubleStream.of(0.010, 0.030, 0.020, -0.002, 0.020).map(Math::exp).average()
                .orElseThrow() - 1);
        JsonNode welch = null;
        String unit = null;
        for (JsonNode metric : json.readTree(get("/api/v1/experiments/" + id, "application/json").body())
                .get("results")) {
            if (metric.get("metric").asString().equals("cpu_us_per_req")) {
                welch = metric.get("paired");
                unit = metric.get("unit").asString();
            }
        }
        assertThat(welch).isNotNull();
        assertThat(welch.get("welchDifferenceIgnoringPairing").asDouble()).isCloseTo(difference, within(1e-9));
        String cell = "<td class=\"welch\">" + Format.value(difference) + " "
                + Format.interval(welch.get("welchCiLowIgnoringPairing").asDouble(),
                        welch.get("welchCiHighIgnoringPairing").asDouble())
                + ", p = " + Format.pValue(welch.get("welchPValueIgnoringPairing").asDouble()) + "</td>";
        assertThat(cell).startsWith("<td class=\"welch\">0.6313 [");

        for (String shown : List.of(get("/experiments/" + id, "text/html").body(),
                get("/api/v1/experiments/" + id + "/report.html").body())) {
            assertThat(shown).contains(">Welch, ignoring the pairing: with − without [95% CI], p</th>", cell);
        }
        // the text and Markdown reports gave p alone
        String sentence = "Welch, ignoring the pairing: with − without " + Format.value(difference) + " "
                + Format.interval(welch.get("welchCiLowIgnoringPairing").asDouble(),
                        welch.get("welchCiHighIgnoringPairing").asDouble())
                + " " + unit + ", p = "
                + Format.pValue(welch.get("welchPValueIgnoringPairing").asDouble()) + ";";
        for (String report : List.of("txt", "md")) {
            assertThat(get("/api/v1/experiments/" + id + "/report." + report).body()).as(report)
                    .contains("cpu_us_per_req: paired ",
                            report.equals("md") ? TextSafety.markdown(sentence) : sentence);
        }
    }

    /**
     * The robust check is the same figure on the page, in the API, the HTML, text and Markdown reports: Huber's score
     * of the windows' log ratios computed again here from the stored windows gives it.
     */
    @Test
    void theRobustCheckIsTheSameFigureInEveryPlace() throws Exception {
        long id = insertDuet("robust", 8, ExperimentStatus.COMPLETED);
        SplittableRandom random = new SplittableRandom(5);
        double[][] logRatios = new double[8][3];
        for (int pair = 0; pair < 8; pair++) {
            List<TrialResult> results = new ArrayList<>();
            Instant start = ReportFixtures.T0.plusSeconds(20L * pair);
            for (int window = 0; window < 3; window++) {
                double without = 40 * (1 + random.nextGaussian() * 0.01);
                // one window far off: its host slowed
                double with = without * (pair == 3 && window == 1 ? 1.25 : 0.97 + random.nextGaussian() * 0.01);
                logRatios[pair][window] = Math.log1p((with - without) / without);
                for (VariantName side : VariantName.values()) {
                    boolean w = side == VariantName.WITH;
                    results.add(new TrialResult(side.label(), (pair * 10 + window) * 2 + side.ordinal(),
                            TrialStatus.OK, start, start.plusSeconds(3), 100 + side.ordinal(),
                            Map.of("cpu_us_per_req", w ? with : without), Map.of(), null,
                            new PairPosition(pair, window, w ? "1" : "0", 1_000L * window, 0L, !w)));
                }
            }
            store.savePair(id, new PairResult(pair, TrialStatus.OK, new PairPlacement("0", "1", VariantName.WITHOUT),
                    results, start, start.plusSeconds(20), Duration.ofSeconds(14), Duration.ofSeconds(6), null));
        }
        RelativeChange expected = RobustPairedChange.of(logRatios, Alternative.TWO_SIDED, 0.95).relativeChange();
        double p = RobustPairedChange.of(logRatios, Alternative.TWO_SIDED, 0.95).pValue();
        JsonNode robust = null;
        for (JsonNode metric : json.readTree(get("/api/v1/experiments/" + id, "application/json").body())
                .get("results")) {
            if (metric.get("metric").asString().equals("cpu_us_per_req")) {
                robust = metric.get("paired").get("robust");
            }
        }
        assertThat(robust).isNotNull();
        assertThat(robust.get("percent").asDouble()).isCloseTo(expected.percent(), within(1e-9));
        assertThat(robust.get("ciLowPercent").asDouble()).isCloseTo(expected.ciLowPercent(), within(1e-9));
        assertThat(robust.get("ciHighPercent").asDouble()).isCloseTo(expected.ciHighPercent(), within(1e-9));
        assertThat(robust.get("pValue").asDouble()).isEqualTo(p);
        assertThat(robust.get("exact").asBoolean()).isTrue();
        // 8 pairs all below 0 but the one with the far window: 2 of 256 patterns as extreme, or 4 with it
        assertThat(p).isLessThan(0.05);
        String figures = Format.percent(expected.percent()) + " "
                + Format.percentInterval(expected.ciLowPercent(), expected.ciHighPercent()) + ", p = "
                + Format.pValue(p);
        for (String shown : List.of(get("/experiments/" + id, "text/html").body(),
                get("/api/v1/experiments/" + id + "/report.html").body())) {
            assertThat(shown).contains(">robust (Huber, pair signs flipped): Δ % [95% CI], p</th>",
                    "<td class=\"robust\">" + figures + "</td>");
        }
        for (String report : List.of("txt", "md")) {
            String sentence = "robust (Huber's score, pairs' signs flipped) " + figures;
            assertThat(get("/api/v1/experiments/" + id + "/report." + report).body()).as(report)
                    .contains(report.equals("md") ? TextSafety.markdown(sentence) : sentence);
        }
    }

    @Test
    void theMethodLineCountsTheMetricsHolmsAdjustmentTookIn() throws Exception {
        long id = duet();

        // cpu_us_per_req and reqs_per_sec; ctx_switches_per_req, the same in every window, could not be compared
        for (String report : List.of("md", "txt")) {
            assertThat(get("/api/v1/experiments/" + id + "/report." + report).body())
                    .contains("Holm-adjusted across the 2 metrics compared;");
        }
    }

    @Test
    void aFailedExperimentSaysWhyInEveryReport() throws Exception {
        long id = ReportFixtures.store(store, jdbc, ReportFixtures.Shape.seedLike("failed"), 3);
        jdbc.sql("UPDATE experiment SET status = 'FAILED', error = ? WHERE id = ?")
                .params("too many failed runs: 4 > 3 | <b>see</b>\nthe last: exit 137", id).update();

        assertThat(get("/api/v1/experiments/" + id + "/report.html").body())
                .contains("too many failed runs: 4 &gt; 3 | &lt;b&gt;see&lt;/b&gt;");
        assertThat(get("/api/v1/experiments/" + id + "/report.md").body())
                .contains("\n\nExperiment error: too many failed runs: 4 &gt; 3 \\| &lt;b&gt;see&lt;/b&gt; the last: "
                        + "exit 137\n\n");
        assertThat(get("/api/v1/experiments/" + id + "/report.txt").body())
                .contains("\nExperiment error: too many failed runs: 4 > 3 | <b>see</b>\n  the last: exit 137\n");
    }

    /**
     * A fresh experiment whose 'with' trials sampled the CPU split and whose 'without' trials had only the kernel's
     * tick: user CPU is compared on the tick split of every trial, 3 µs below what the 'with' trials sampled.
     */
    private static final double[] NOISE = {0.1, -0.2, 0.3, 0.0, -0.1, 0.2};

    private long mixedSplit() {
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(Map.of("completion", "monitor"), Workload.DEFAULTS),
                EngineVariant.of(Map.of("completion", "notification"), Workload.DEFAULTS), 6);
        long id = StoredExperiments.insert(store, new ExperimentSpec("mixed split", null, ExperimentKind.ENGINE, null,
                plan), ExperimentStatus.COMPLETED, "tester", ReportFixtures.T0);
        for (int ordinal = 0; ordinal < 12; ordinal++) {
            boolean with = ordinal % 2 == 1;
            double tick = (with ? 17.0 : 18.0) + NOISE[ordinal / 2];
            Map<String, String> environment = new LinkedHashMap<>();
            environment.put("cpu_split_source", with ? "sampled" : "tick");
            if (with) {
                environment.put("tick_user_cpu_us_per_req", Double.toString(tick));
                environment.put("tick_sys_cpu_us_per_req", "40.0");
            }
            Instant start = ReportFixtures.T0.plusSeconds(60L * ordinal);
            store.saveRun(id, new TrialResult(with ? "with" : "without", ordinal, TrialStatus.OK, start,
                    start.plusSeconds(50), 1000 + ordinal, Map.of("user_cpu_us_per_req", with ? tick + 3 : tick,
                            "sys_cpu_us_per_req", 40.0 + NOISE[ordinal / 2]), environment, null));
        }
        return id;
    }

    @Test
    void theRPrintOutAndEmbeddedSamplesAreThoseTheResultsWereComputedFrom() throws Exception {
        long id = mixedSplit();
        double[] withTick = new double[6];
        double[] withoutTick = new double[6];
        for (int i = 0; i < 6; i++) {
            withTick[i] = 17.0 + NOISE[i];
            withoutTick[i] = 18.0 + NOISE[i];
        }
        String expected = io.perflab.stats.format.HtestPrinter.tTest(io.perflab.stats.TTest.welch(withTick,
                withoutTick, io.perflab.stats.Alternative.TWO_SIDED, 0.95));

        String text = get("/api/v1/experiments/" + id + "/report.txt").body();
        String html = get("/api/v1/experiments/" + id + "/report.html").body();

        assertThat(text).contains("user_cpu_us_per_req (us) — improved: ").contains(expected);
        assertThat(html).contains("\"with\":" + json.writeValueAsString(withTick));
    }
}
