package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static io.perflab.Occurrences.count;
import static org.mockito.ArgumentMatchers.anyCollection;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import io.perflab.paired.PairedInput;
import io.perflab.runner.trial.MetricKeys;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

/**
 * Slice test of the experiment page: the controller and its templates over a mocked service, with comparisons
 * computed by the real statistics from made-up runs. What the page shows and in which order; sign-in and the
 * form are covered through the whole server by {@link ExperimentPagesTests}.
 */
@WebMvcTest(ExperimentPagesController.class)
@AutoConfigureMockMvc(addFilters = false)
@Import(PageFormat.class)
class ExperimentPageTests {

    static final String HOSTILE = "<img src=x onerror=alert(1)>";
    static final long ID = 42;

    @Autowired
    MockMvc mvc;

    @MockitoBean
    ExperimentService experiments;

    @MockitoBean
    ExperimentRepository store;

    @MockitoBean
    ExperimentResults results;

    @MockitoBean
    MdeHints mdeHints;

    /** Runs of an engine experiment: 5 + 5 OK, user CPU 5 % lower with the change, latency p99 24 × higher. */
    static List<RunRecord> engineRuns() {
        Random random = new Random(7);
        List<RunRecord> runs = new ArrayList<>();
        for (int ordinal = 0; ordinal < 10; ordinal++) {
            boolean with = ordinal % 2 == 1;
            Map<String, Double> m = new LinkedHashMap<>();
            m.put(MetricKeys.USER_CPU_US_PER_REQ, (with ? 19 : 20) + random.nextGaussian() * 0.1);
            m.put(MetricKeys.SYS_CPU_US_PER_REQ, 40 + random.nextGaussian() * 0.5);
            m.put(MetricKeys.CTX_SWITCHES_PER_REQ, 4.5 + random.nextGaussian() * 0.05);
            m.put(MetricKeys.REQS_PER_SEC, 50_000 + random.nextGaussian() * 500);
            m.put(MetricKeys.LATENCY_P99_US, (with ? 24 * 400 : 400) + random.nextGaussian() * 20);
            m.put(MetricKeys.ALLOC_BYTES_PER_REQ, 1500 + random.nextGaussian() * 10);
            runs.add(new RunRecord(ordinal, with ? "with" : "without", ordinal, "OK", Instant.EPOCH, Instant.EPOCH,
                    100L + ordinal, Map.of("host", "test-host"), null, m));
        }
        return runs;
    }

    /** The comparisons the service computes for {@code runs}, with the catalog's units and directions. */
    static List<MetricComparison> compare(List<RunRecord> runs) {
        ExperimentRepository definitions = mock(ExperimentRepository.class);
        Map<String, MetricDefinition> catalog = new LinkedHashMap<>();
        int order = 0;
        for (String key : List.of(MetricKeys.USER_CPU_US_PER_REQ, MetricKeys.SYS_CPU_US_PER_REQ,
                MetricKeys.CTX_SWITCHES_PER_REQ, MetricKeys.REQS_PER_SEC, MetricKeys.LATENCY_P99_US,
                MetricKeys.ALLOC_BYTES_PER_REQ)) {
            catalog.put(key, new MetricDefinition(key, "us", key.equals(MetricKeys.REQS_PER_SEC), order += 10, ""));
        }
        when(definitions.metricDefinitions(anyLong())).thenReturn(catalog);
        return new ExperimentResults(definitions, mock(ResultsDigestRepository.class)).compute(ID, runs);
    }

    static ExperimentView view(String name, String kind, List<MetricComparison> comparisons) {
        Map<String, Map<String, String>> diff = new LinkedHashMap<>();
        if (kind.equals("engine")) {
            diff.put("completion", Map.of("without", "monitor", "with", "notification"));
        }
        return new ExperimentView(ID, name, null, kind, "COMPLETED", null, null, null,
                new ExperimentView.Progress(10, 10, 0), null, Instant.EPOCH, Instant.EPOCH, Instant.EPOCH, "admin",
                null, new ExperimentView.Plan(5, "interleaved", 1, 60, 3), Map.of(), Map.of(), diff, comparisons);
    }

    private String page(String query, ExperimentView view, List<RunRecord> runs, UploadDetails upload)
            throws Exception {
        when(experiments.view(ID)).thenReturn(view);
        when(experiments.runs(eq(ID), anyCollection())).thenAnswer(call -> {
            Collection<String> keys = call.getArgument(1);
            return runs.stream().map(r -> new RunRecord(r.id(), r.variant(), r.ordinal(), r.status(), r.startedAt(),
                    r.finishedAt(), r.pid(), r.environment(), r.error(), filter(r.metrics(), keys))).toList();
        });
        when(experiments.uploadDetails(ID)).thenReturn(upload);
        return mvc.perform(get("/experiments/" + ID + query)).andReturn().getResponse().getContentAsString();
    }

    private static Map<String, Double> filter(Map<String, Double> metrics, Collection<String> keys) {
        Map<String, Double> kept = new LinkedHashMap<>(metrics);
        kept.keySet().retainAll(keys);
        return kept;
    }

    /** The home page's lead described the seeds' fresh JVMs and Welch when the default was alternating pairs. */
    @Test
    void homePageLeadDescribesTheDefaultDesignAndTheFreshOneAsAnOption() throws Exception {
        String home = mvc.perform(get("/")).andReturn().getResponse().getContentAsString();

        String lead = home.substring(home.indexOf("<p class=\"lead\">"), home.indexOf("</p>",
                home.indexOf("<p class=\"lead\">")));
        assertThat(lead.replaceAll("\\s+", " ")).containsSubsequence("By default", "alternating pairs",
                "at most <span>" + PairedInput.DEFAULT_PAIRS + "</span> pairs",
                "context switches per request are each settled",
                "paired t-test", "<span>" + ExperimentValidator.DEFAULT_RUNS + " + "
                        + ExperimentValidator.DEFAULT_RUNS + "</span>", "fresh JVM", "Welch", "one option away");
    }

    @Test
    void leadsWithTheHeadlineAnswerAndListsTheVerdictNextToEachMetric() throws Exception {
        List<RunRecord> runs = engineRuns();
        String html = page("", view("sync completion", "engine", compare(runs)), runs, UploadDetails.NONE);

        String answer = html.substring(html.indexOf("<h2 id=\"answer-title\">"), html.indexOf("<h2>What changed"));
        assertThat(answer).containsSubsequence(MetricKeys.USER_CPU_US_PER_REQ, "verdict-improved", "-5.",
                MetricKeys.SYS_CPU_US_PER_REQ, MetricKeys.CTX_SWITCHES_PER_REQ, MetricKeys.REQS_PER_SEC)
                .doesNotContain(MetricKeys.LATENCY_P99_US).contains("6 metrics");
        assertThat(html.indexOf("id=\"answer-title\"")).isLessThan(html.indexOf("id=\"results-table\""));
        String header = html.substring(html.indexOf("<table class=\"data results\""), html.indexOf("</thead>",
                html.indexOf("<table class=\"data results\"")));
        assertThat(header).containsSubsequence(">Metric</th>", ">Verdict</th>", ">n without / with</th>",
                ">mean without</th>", ">Δ %</th>", ">Holm p</th>");
        // the tests behind each verdict are folded under it
        assertThat(html).contains("<details>", ">Mann–Whitney p</dt>", ">runs for ±1 %</dt>");
    }

    @Test
    void saysAWarningThatEveryMetricSharesOnce() throws Exception {
        List<RunRecord> runs = engineRuns();
        String html = page("", view("small", "engine", compare(runs)), runs, UploadDetails.NONE);

        String warning = "only 5 'with' samples: need ≥ 6 for a trustworthy confidence interval";
        assertThat(count(html, warning.replace("'", "&#39;"))).isEqualTo(1);
        assertThat(count(html, "only 5 &#39;without&#39; samples")).isEqualTo(1);
        assertThat(html).contains("— all 6 metrics");
    }

    @Test
    void drawsTheSamePlotsAsTheReportOnTheServerWithVariantLabels() throws Exception {
        List<RunRecord> runs = engineRuns();
        String html = page("", view("plots", "engine", compare(runs)), runs, UploadDetails.NONE);

        assertThat(count(html, "<svg ")).isEqualTo(1 + 2 * 6);
        assertThat(html).contains("id=\"forest\"", "id=\"strip-1\"", "id=\"order-6\"", "log-ratio scale")
                .contains(">without (n = 5)</text>", ">with (n = 5)</text>")
                .doesNotContain("echarts", "charts.js", "id=\"experiment-data\"");
        // the latency outlier is drawn at the edge, so the headline changes keep their width
        assertThat(html).contains("(beyond the axis)");
    }

    @Test
    void pagesAndFiltersTheMetricsOfALargeUploadWithPlotsOnlyForThoseShown() throws Exception {
        List<RunRecord> runs = new ArrayList<>();
        for (int ordinal = 0; ordinal < 8; ordinal++) {
            Map<String, Double> m = new LinkedHashMap<>();
            for (int b = 0; b < 40; b++) {
                m.put(String.format("Bench%02d:ns/op", b), 100.0 + b + ordinal % 4 + (ordinal % 2) * (b % 3));
                m.put(String.format("Bench%02d:B/op", b), 64.0 + ordinal % 3);
            }
            runs.add(new RunRecord(ordinal, ordinal % 2 == 0 ? "without" : "with", ordinal, "OK", Instant.EPOCH,
                    Instant.EPOCH, null, Map.of(), null, m));
        }
        ExperimentView upload = view("go upload", "upload", compare(runs));

        String first = page("", upload, runs, UploadDetails.NONE);
        String second = page("?page=1", upload, runs, UploadDetails.NONE);
        String filtered = page("?metric=bench07", upload, runs, UploadDetails.NONE);

        assertThat(count(first, "<tbody class=\"metric\"")).isEqualTo(ExperimentPagesController.METRICS_PER_PAGE);
        assertThat(count(first, "<svg ")).isEqualTo(1 + 2 * ExperimentPagesController.METRICS_PER_PAGE);
        assertThat(first).contains("Showing 25 of the 80 metrics that match (page 1 of 4)", "Page 1 of 4")
                .contains("href=\"/experiments/42?page=1#metrics\"")
                .contains("<th colspan=\"8\" scope=\"rowgroup\">Bench00</th>");
        assertThat(second).contains("data-metric=\"Bench12:ns/op\"").doesNotContain("data-metric=\"Bench12:B/op\"")
                .contains("Page 2 of 4");
        assertThat(count(filtered, "<tbody class=\"metric\"")).isEqualTo(2);
        assertThat(filtered).contains("data-metric=\"Bench07:ns/op\"", "data-metric=\"Bench07:B/op\"")
                .contains("value=\"bench07\"");
    }

    @Test
    void showsWhatTheUploadSaidWithItsWarningsNearTheTop() throws Exception {
        List<RunRecord> runs = engineRuns();
        UploadDetails upload = new UploadDetails(Map.of("library_build_type", "debug", "num_cpus", "8"),
                List.of("Google Benchmark was built as a debug build: its timings are not those of a release build"),
                Map.of("with", Map.of("client_threads", "16")));

        String html = page("", view("google benchmark", "upload", compare(runs)), runs, upload);

        assertThat(html.indexOf("built as a debug build")).isPositive()
                .isLessThan(html.indexOf("id=\"answer-title\""));
        assertThat(html).contains(">library_build_type</th><td>debug</td>", ">client_threads</th>");
    }

    @Test
    void escapesUserTextEverywhere() throws Exception {
        List<RunRecord> runs = engineRuns();
        runs.forEach(r -> r.metrics().put(HOSTILE, 1.0 + r.ordinal() % 3));

        String html = page("", view(HOSTILE, "engine", compare(runs)), runs,
                new UploadDetails(Map.of(HOSTILE, HOSTILE), List.of(HOSTILE), Map.of()));

        assertThat(html).doesNotContain(HOSTILE).contains("&lt;img src=x onerror=alert(1)&gt;");
    }
}
