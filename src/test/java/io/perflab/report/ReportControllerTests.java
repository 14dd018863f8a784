package io.perflab.report;

import static org.assertj.core.api.Assertions.assertThat;
import static io.perflab.Occurrences.count;

import io.perflab.experiment.StoredExperiments;
import io.perflab.stats.Alternative;
import io.perflab.stats.TTest;
import io.perflab.stats.TTestResult;
import io.perflab.stats.format.HtestPrinter;
import io.perflab.display.Format;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/** The three report formats over HTTP, for an experiment stored with made-up samples. */
class ReportControllerTests extends ReportTestSupport {

    static final int RUNS = 20;

    private long id;

    @BeforeEach
    void experiment() {
        id = ReportFixtures.store(store, jdbc, ReportFixtures.Shape.seedLike("sync completion: notification"), RUNS);
    }

    @Test
    void htmlReportIsASelfContainedDownloadWithEverySection() throws Exception {
        HttpResponse<String> response = get("/api/v1/experiments/" + id + "/report.html");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/html;charset=UTF-8");
        assertThat(response.headers().firstValue("Content-Disposition"))
                .hasValue("attachment; filename=\"perflab-experiment-" + id + ".html\"");
        String html = response.body();
        assertThat(html)
                .contains("<title>PerfLab experiment " + id + ": \u2068sync completion: notification\u2069</title>")
                .contains("Notification instead of a monitor latch for sync calls")
                // option diff, workload, plan, environment
                .contains("<th scope=\"row\">completion</th>", ">monitor</td>", ">notification</td>")
                .contains(">clientThreads</th>", ">runs per variant</th>", ">interleaved</td>")
                .contains(">jvm_version</th>", "Eclipse Adoptium OpenJDK 64-Bit Server VM 17.0.10+7")
                .contains(">load_average</th>", "varies per run: 0.5 to 0.89")
                // results, verdicts, warnings column, methodology, R blocks, failed runs
                .contains("id=\"results-table\"", "verdict-improved", "Mann–Whitney p", "runs for ±1 %")
                .contains("Welch's two-sided t-test</strong>", "Holm's", "Fieller's method", "TOST", "α = 0.05")
                .contains("per-request figures from getrusage(RUSAGE_SELF) cover the whole process, client and server")
                .contains("Welch Two Sample t-test", "data:  with and without", "mean of x mean of y")
                .contains("trial JVM exited with code 137 (killed)");
        // headline metrics first, then throughput, latency, allocation
        String table = html.substring(html.indexOf("id=\"results-table\""));
        assertThat(table).containsSubsequence("user_cpu_us_per_req (us)", "sys_cpu_us_per_req (us)",
                "ctx_switches_per_req (count)", "reqs_per_sec (req/s)", "latency_p99_us (us)",
                "alloc_bytes_per_req (bytes)");
        // a forest plot, and a strip/box and a run-order plot per metric, each with a text alternative
        assertThat(count(html, "<svg ")).isEqualTo(1 + 2 * 6);
        assertThat(count(html, "<title id=\"")).isEqualTo(1 + 2 * 6);
        assertThat(count(html, "<desc id=\"")).isEqualTo(1 + 2 * 6);
        assertThat(html).contains("user_cpu_us_per_req (us)</text>", "run (position in plan order)</text>",
                "Δ % of the without mean (log-ratio scale), 95% CI (Fieller)");
        // nothing that would make a request: no script to run, no stylesheet, image, font or frame by URL
        assertThat(html).doesNotContain("<link", "<img", "<iframe", "src=", "url(", "@import", "href=\"http")
                .contains("<meta http-equiv=\"Content-Security-Policy\"");
        assertThat(count(html, "<script")).isEqualTo(1);
        assertThat(html.replace("http://www.w3.org/2000/svg", "")).doesNotContain("http://", "https://");
    }

    @Test
    void embeddedSamplesRecomputeTheResultsTable() throws Exception {
        String html = get("/api/v1/experiments/" + id + "/report.html").body();
        JsonNode samples = json.readTree(scriptContent(html));

        JsonNode cpu = samples.get("metrics").get("user_cpu_us_per_req");
        assertThat(cpu.get("unit").asText()).isEqualTo("us");
        assertThat(cpu.get("with")).hasSize(RUNS);
        assertThat(cpu.get("without")).hasSize(RUNS - 1);
        assertThat(samples.get("runs")).hasSize(2 * RUNS);
        TTestResult recomputed = TTest.welch(doubles(cpu.get("with")), doubles(cpu.get("without")),
                Alternative.TWO_SIDED, 0.95);

        JsonNode result = json.readTree(get("/api/v1/experiments/" + id).body()).get("results").get(0);
        assertThat(result.get("metric").asText()).isEqualTo("user_cpu_us_per_req");
        assertThat(recomputed.t()).isEqualTo(result.get("t").asDouble());
        assertThat(recomputed.pValue()).isEqualTo(result.get("pValue").asDouble());
        assertThat(html).contains(">" + Format.statistic(recomputed.t()) + ", ",
                ">" + Format.pValue(recomputed.pValue()) + "</dd>");
    }

    /**
     * A note shared by five of six metrics was cut to "5 metrics: m1, m2, m3, …" in every report, with no way for
     * its reader to see the rest: the exports name them all, the page names three and folds the rest.
     */
    @Test
    void reportsNameEveryMetricOfANoteTheyShareAndThePageFoldsAllButAFew() throws Exception {
        HttpResponse<String> created = post("/api/v1/uploads", ADMIN_TOKEN, "application/json", """
                {"benchmark":"shared note","without":{"metrics":{"t":[1,2,3,4],"m1":[1,2],"m2":[1,2],"m3":[1,2],
                 "m4":[1,2],"m5":[1,2]}},"with":{"metrics":{"t":[2,3,4,5]}}}""");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        long upload = read(created.body()).get("experimentId").asLong();
        String all = "5 metrics: m1, m2, m3, m4, m5";

        assertThat(get("/api/v1/experiments/" + upload + "/report.md").body()).contains("- " + all + ": ");
        assertThat(get("/api/v1/experiments/" + upload + "/report.txt").body()).contains("warning (" + all + "): ");
        assertThat(get("/api/v1/experiments/" + upload + "/report.html").body()).contains("— " + all)
                .doesNotContain("m3, …");
        String page = get("/experiments/" + upload, "text/html").body();
        assertThat(page).contains("— 5 metrics: m1, m2, m3, …", "<summary>all 5 of them</summary>",
                "<span>m1, m2, m3, m4, m5</span>");
    }

    @Test
    void markdownReportIsACompactTableForAPullRequest() throws Exception {
        HttpResponse<String> response = get("/api/v1/experiments/" + id + "/report.md");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/markdown;charset=UTF-8");
        assertThat(response.headers().firstValue("Content-Disposition"))
                .hasValue("attachment; filename=\"perflab-experiment-" + id + ".md\"");
        String md = response.body();
        JsonNode cpu = json.readTree(get("/api/v1/experiments/" + id).body()).get("results").get(0);
        assertThat(md)
                .startsWith("### PerfLab experiment " + id + ": sync completion: notification\n")
                .contains("| setting | without | with |\n|---|---|---|\n| completion | monitor | notification |\n")
                .contains("| metric | without (mean) | with (mean) | Δ % | 95% CI of Δ % | p | Holm p | verdict |\n"
                        + "|---|---:|---:|---:|---:|---:|---:|---|\n")
                .contains("| user_cpu_us_per_req (us) | " + Format.value(cpu.get("meanWithout").asDouble())
                        + " | " + Format.value(cpu.get("meanWith").asDouble()) + " | "
                        + Format.percent(cpu.get("percent").asDouble()) + " | "
                        + Format.percentInterval(cpu.get("ciLowPercent").asDouble(),
                                cpu.get("ciHighPercent").asDouble())
                        + " | " + Format.pValue(cpu.get("pValue").asDouble()) + " | "
                        + Format.pValue(cpu.get("holmPValue").asDouble()) + " | **improved** |")
                .contains("1 failed run: run " + (2 * RUNS - 2) + " (without, FAILED) trial JVM exited with code 137")
                .contains("Method: Welch two-sided t-tests", "Holm-adjusted across the 6 metrics compared;",
                        "getrusage(RUSAGE_SELF)");
        assertThat(md.lines().filter(l -> l.startsWith("| ")).count()).isEqualTo(1 + 1 + 1 + 6);
    }

    @Test
    void textReportHoldsRTTestBlocksHeadedByMetricAndUnit() throws Exception {
        HttpResponse<String> response = get("/api/v1/experiments/" + id + "/report.txt");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain;charset=UTF-8");
        assertThat(response.headers().firstValue("Content-Disposition"))
                .hasValue("attachment; filename=\"perflab-experiment-" + id + ".txt\"");
        String txt = response.body();
        String html = get("/api/v1/experiments/" + id + "/report.html").body();
        JsonNode cpu = json.readTree(scriptContent(html)).get("metrics").get("user_cpu_us_per_req");
        String expectedBlock = HtestPrinter.tTest(TTest.welch(doubles(cpu.get("with")),
                doubles(cpu.get("without")), Alternative.TWO_SIDED, 0.95));

        assertThat(txt)
                .startsWith("PerfLab experiment " + id + ": sync completion: notification\n")
                .contains("Change (without -> with):\n  completion: monitor -> notification\n")
                .containsSubsequence("user_cpu_us_per_req (us) — improved: ", "\n" + expectedBlock,
                        "sys_cpu_us_per_req (us) — ", "ctx_switches_per_req (count) — ", "reqs_per_sec (req/s) — ")
                .contains("\tWelch Two Sample t-test\n\ndata:  with and without\nt = ")
                .contains("alternative hypothesis: true difference in means is not equal to 0\n"
                        + "95 percent confidence interval:\n")
                .contains("Failed runs:\n  run " + (2 * RUNS - 2) + " (without, FAILED): trial JVM exited");
        assertThat(count(txt, "Welch Two Sample t-test")).isEqualTo(6);
    }

    @ParameterizedTest
    @ValueSource(strings = {"report.html", "report.md", "report.txt", "report"})
    void unknownExperimentIs404ProblemJson(String report) throws Exception {
        HttpResponse<String> response = get("/api/v1/experiments/987654/" + report, "text/html");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body()).contains("no experiment with id 987654");
    }

    @Test
    void reportFollowsTheAcceptHeader() throws Exception {
        String base = "/api/v1/experiments/" + id + "/report";

        assertThat(get(base, "text/markdown").body()).startsWith("### PerfLab experiment");
        assertThat(get(base, "text/plain").body()).startsWith("PerfLab experiment");
        assertThat(get(base, "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8").body()).startsWith("<!DOCTYPE html>");
        assertThat(get(base, "text/plain;q=0.5, text/markdown").body()).startsWith("### PerfLab");
        assertThat(get(base).body()).startsWith("<!DOCTYPE html>");
        HttpResponse<String> json = get(base, "application/json");
        assertThat(json.statusCode()).isEqualTo(406);
        assertThat(json.body()).contains("text/markdown");
        // a format refused with q=0 is never served, whatever wider range also matches it
        assertThat(get(base, "text/html;q=0, */*;q=0.5").body()).startsWith("### PerfLab");
        assertThat(get(base, "text/html;q=0, text/markdown;q=0, text/*").body()).startsWith("PerfLab experiment");
        assertThat(get(base, "text/*;q=0, */*").statusCode()).isEqualTo(406);
        // the highest quality wins; HTML, then Markdown, then text among equals
        assertThat(get(base, "text/plain, text/markdown;q=0.9").body()).startsWith("PerfLab experiment");
        assertThat(get(base, "text/plain, text/markdown").body()).startsWith("### PerfLab");
    }

    @Test
    void reportOfAnExperimentWithoutResultsSaysSo() throws Exception {
        long empty = StoredExperiments.insert(store, new io.perflab.experiment.ExperimentSpec("queued", null,
                io.perflab.experiment.ExperimentKind.ENGINE, null, io.perflab.runner.experiment.ExperimentPlan.of(
                        io.perflab.runner.experiment.EngineVariant.of(Map.of("completion", "monitor"),
                                io.perflab.runner.rpcbench.Workload.DEFAULTS),
                        io.perflab.runner.experiment.EngineVariant.of(Map.of("completion", "future"),
                                io.perflab.runner.rpcbench.Workload.DEFAULTS), 2)),
                io.perflab.experiment.ExperimentStatus.CANCELLED, "tester", ReportFixtures.T0);

        String html = get("/api/v1/experiments/" + empty + "/report.html").body();
        assertThat(html).contains("No results yet").doesNotContain("<svg ");
        assertThat(get("/api/v1/experiments/" + empty + "/report.md").body()).contains("No results yet");
        assertThat(get("/api/v1/experiments/" + empty + "/report.txt").body()).contains("No results yet");
    }

    static String scriptContent(String html) {
        Matcher m = Pattern.compile("<script type=\"application/json\" id=\"perflab-samples\">(.*?)</script>",
                Pattern.DOTALL).matcher(html);
        assertThat(m.find()).as("samples script element").isTrue();
        return m.group(1);
    }

    private static double[] doubles(JsonNode array) {
        List<Double> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asDouble()));
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
