package io.perflab.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.experiment.ExperimentKind;
import io.perflab.experiment.ExperimentSpec;
import io.perflab.experiment.ExperimentStatus;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.PairPlacement;
import io.perflab.runner.experiment.PairResult;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.trial.PairPosition;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * One experiment read in every place a person reads it — the page, the three report formats and the API — says the
 * same: the same design, the same figures and the same caveats.
 */
class ReportAgreementTests extends ReportTestSupport {

    /**
     * A duet of five pairs of three windows, stopped by its rule: CPU per call 3 % lower with the change, requests
     * per second unchanged, and context switches the same in every window, so that the first metric listed (a
     * headline one) cannot be compared.
     */
    private long duet() {
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(Map.of("completion", "monitor"), Workload.DEFAULTS),
                EngineVariant.of(Map.of("completion", "notification"), Workload.DEFAULTS), 6)
                .withDesign(ExperimentDesign.DUET, 3);
        long id = store.insert(new ExperimentSpec("duet", null, ExperimentKind.ENGINE, null, plan),
                ExperimentStatus.COMPLETED, "tester", ReportFixtures.T0);
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
        }
        assertThat(section(html, "summary")).doesNotContain("100·(mean(with) / mean(without) − 1)")
                .contains("100·(e<sup>mean</sup> − 1)");
        assertThat(section(html, "methodology"))
                .doesNotContain("Fieller", "TOST", "<strong>Welch's two-sided t-test</strong>")
                .contains("one-sample t-test of the pair log ratios", "100·(e<sup>mean</sup> − 1)",
                        "lies within <strong>±1%</strong>");
        assertThat(page).contains("one-sample t-test of the pair log ratios");
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
        long id = store.insert(new ExperimentSpec("mixed split", null, ExperimentKind.ENGINE, null, plan),
                ExperimentStatus.COMPLETED, "tester", ReportFixtures.T0);
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
