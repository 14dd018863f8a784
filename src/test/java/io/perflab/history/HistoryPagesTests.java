package io.perflab.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.HeadlessChromium;
import io.perflab.upload.UploadServer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/** The benchmark pages over a series of uploads with a step at the seventh. */
class HistoryPagesTests extends UploadServer {

    static final String HOSTILE = "<img src=x onerror=alert(1)>";

    @TempDir
    Path profile;

    /** Ten uploads on main; from the seventh on, the level is 20 % higher. */
    private void uploadSeries(String benchmark) throws Exception {
        uploadSeries(benchmark, "commit-");
    }

    /** {@link #uploadSeries(String)} with commits named {@code commitPrefix} and the upload's number. */
    private void uploadSeries(String benchmark, String commitPrefix) throws Exception {
        Instant first = Instant.parse("2026-01-01T00:00:00Z");
        double[] noise = {-2, 1.5, 0.5, -1, 2, -1};
        for (int i = 0; i < 10; i++) {
            double level = i < 6 ? 100 : 120;
            StringBuilder values = new StringBuilder();
            for (int j = 0; j < noise.length; j++) {
                values.append(j == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.2f", level + noise[j]));
            }
            String body = """
                    {"benchmark": %s, "variant": "with",
                     "git": {"repository": "perflab", "branch": "main", "commit": %s, "commitTime": "%s"},
                     "metrics": {"latency_us": {"unit": "us", "direction": "lower", "values": [%s]}}}"""
                    .formatted(json.writeValueAsString(benchmark), json.writeValueAsString(commitPrefix + i),
                            first.plusSeconds(3600L * i), values);
            HttpResponse<String> response = post("/api/v1/uploads", ADMIN_TOKEN, "application/json", body);
            assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        }
    }

    private String page(String path) throws Exception {
        return html(path).body();
    }

    @Test
    void historyPageShowsTheSeriesTheChangePointAndLinksToExperiments() throws Exception {
        uploadSeries("history-page");

        String html = page("/benchmarks/history-page");

        assertThat(html).contains("latency_us", "commit-6", "Change points", "/experiments/")
                .contains("id=\"chart-history\"", "id=\"history-data\"");
        // the branch selector offers the branches of this benchmark's uploads
        assertThat(html).containsPattern("<option value=\"main\"[^>]*>main</option>");
        assertThat(html.split("<code>commit-", -1)).hasSizeGreaterThanOrEqualTo(11);
        assertThat(page("/benchmarks")).contains("history-page");
    }

    /** Uploads without git information left the commit and branch cells blank, where other tables say "—". */
    @Test
    void uploadsWithoutGitInformationShowADashForCommitAndBranch() throws Exception {
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> response = post("/api/v1/uploads", ADMIN_TOKEN, "application/json", """
                    {"benchmark": "no git", "metrics": {"t": {"unit": "ns", "values": [1, 2, 3]}}}""");
            assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        }

        String html = page("/benchmarks/no%20git");

        String rows = html.substring(html.indexOf("<caption>Uploads in commit order</caption>"),
                html.indexOf("</tbody>", html.indexOf("<caption>Uploads in commit order</caption>")));
        assertThat(rows.split("<tr>", -1)).hasSize(1 + 1 + 2);
        assertThat(rows.replaceAll("\\s+", "")).contains("</td><td>—</td><td>—</td><td>—</td>")
                .doesNotContain("<td></td>", "<code></code>");
        String list = page("/benchmarks?name=no+git");
        assertThat(list.replaceAll("\\s+", " ")).containsPattern("<td class=\"num\">2</td> <td>—</td>");
    }

    @Test
    void historyPageShowsTheSeriesAPageAtATimeTheLatestFirst() throws Exception {
        uploadSeries("history-pages");

        String latest = page("/benchmarks/history-pages?branch=main&size=4");
        assertThat(latest).contains("Uploads <span>7</span>–<span>10</span> of the series' <span>10</span>")
                .contains("(page <span>1</span> of <span>3</span>, the latest first)")
                .contains("<code>commit-6</code>", "<code>commit-9</code>").doesNotContain("<code>commit-5</code>")
                .contains("href=\"/benchmarks/history-pages?branch=main&amp;size=4&amp;page=1\">Earlier uploads")
                .doesNotContain("Later uploads");
        String middle = page("/benchmarks/history-pages?page=1&branch=main&size=4");
        assertThat(middle).contains("<code>commit-2</code>", "<code>commit-5</code>")
                .doesNotContain("<code>commit-6</code>", "<code>commit-1</code>")
                // the rows keep their place in the whole series
                .containsPattern("<td class=\"num\">2</td>\\s*<td><code>commit-2</code>")
                .contains("href=\"/benchmarks/history-pages?branch=main&amp;size=4&amp;page=2\">Earlier uploads")
                .contains("href=\"/benchmarks/history-pages?branch=main&amp;size=4&amp;page=0\">Later uploads");
        // the whole series fits the default page: no pager
        assertThat(page("/benchmarks/history-pages")).doesNotContain("Earlier uploads", "of the series'");

        assertThat(html("/benchmarks/history-pages?size=4&page=3").statusCode()).isEqualTo(404);
        HttpResponse<String> notAPage = html("/benchmarks/history-pages?page=two");
        assertThat(notAPage.statusCode()).isEqualTo(400);
        assertThat(notAPage.body()).contains("There is no page &#39;two&#39;");
        assertThat(html("/benchmarks/history-pages?size=201").statusCode()).isEqualTo(400);
    }

    @Test
    void benchmarkListIsPagedAndFilteredByName() throws Exception {
        for (int i = 0; i < HistoryPagesController.PAGE_SIZE + 1; i++) {
            HttpResponse<String> response = post("/api/v1/uploads", ADMIN_TOKEN, "application/json", """
                    {"benchmark": "pager-%02d", "metrics": {"t": {"values": [1, 2, 3]}}}""".formatted(i));
            assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        }

        String first = page("/benchmarks?name=pager-");
        assertThat(first).contains("51 benchmarks", "Page 1 of 2", "pager-00", "pager-49")
                .doesNotContain("pager-50")
                .contains("href=\"/benchmarks?name=pager-&amp;page=1\"");
        String second = page("/benchmarks?name=pager-&page=1");
        assertThat(second).contains("pager-50", "Page 2 of 2").doesNotContain("pager-49");
        assertThat(page("/benchmarks?name=no-such-pager")).contains("No benchmark's name contains")
                .contains("no-such-pager");
    }

    /**
     * A page past the last answered 200, and a negative page number listed the first page as if it had been asked
     * for: they answer 404 and 400 with what was wrong and the form, as the experiments list does.
     */
    @Test
    void aPagePastTheLastAnswers404AndAPageNumberThatIsNoneAnswers400() throws Exception {
        uploadTwoSamples("no-such-page");

        HttpResponse<String> past = html("/benchmarks?name=no-such-page&page=7");
        assertThat(past.statusCode()).isEqualTo(404);
        assertThat(past.body()).containsPattern("There is no page\\s*<span>8</span>: the list has <span>1</span>")
                .contains("href=\"/benchmarks?name=no-such-page\">First page", "role=\"search\"")
                .doesNotContain("No benchmark's name contains", "aria-label=\"Pages\"");
        for (String page : new String[] {"-1", "two", "99999999999"}) {
            HttpResponse<String> none = html("/benchmarks?name=no-such-page&page=" + page);
            assertThat(none.statusCode()).as(page).isEqualTo(400);
            assertThat(none.body()).as(page)
                    .contains("role=\"alert\">There is no page &#39;" + page + "&#39;: the address numbers pages")
                    .contains("role=\"search\"").doesNotContain(">no-such-page<", "Failed to convert");
        }
        HttpResponse<String> empty = html("/benchmarks?name=nothing-has-this-name&page=1");
        assertThat(empty.statusCode()).isEqualTo(404);
        assertThat(empty.body()).contains("There is no page").doesNotContain("No benchmark's name contains");
        assertThat(html("/benchmarks?name=no-such-page&page=0").body()).contains(">no-such-page<");
    }

    private HttpResponse<String> html(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base() + path)).header("Accept", "text/html").build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aBenchmarkWhoseNameCannotBeAPathIsFilteredByItsExperiment() throws Exception {
        String name = "./old vs ./new";
        uploadSeries(name);
        long experiment = jdbc.sql("SELECT MAX(id) FROM experiment WHERE benchmark = ?").param(name)
                .query(Long.class).single();

        String history = page("/benchmarks?experiment=" + experiment);
        assertThat(history).contains("action=\"/benchmarks\"", "name=\"experiment\" value=\"" + experiment + "\"");
        String filtered = page("/benchmarks?experiment=" + experiment + "&metric=latency_us&branch=main");
        assertThat(filtered).contains("<h1>./old vs ./new</h1>", "commit-9");
    }

    @Test
    void benchmarkNamesAreEscapedOnEveryPage() throws Exception {
        uploadSeries(HOSTILE);

        // filtered, so that the other tests' benchmarks cannot push it to a later page; the filter is shown escaped too
        String list = page("/benchmarks?name=%3Cimg");
        String history = page("/benchmarks/" + java.net.URLEncoder.encode(HOSTILE, "UTF-8").replace("+", "%20"));
        String experiments = page("/experiments?kind=upload");
        String home = page("/");
        for (String html : new String[] {list, history, experiments, home}) {
            assertThat(html).doesNotContain(HOSTILE);
        }
        assertThat(list).contains("&lt;img src=x onerror=alert(1)&gt;").contains("value=\"&lt;img\"");
        assertThat(history).contains("&lt;img src=x onerror=alert(1)&gt;")
                .contains("<title>\u2068&lt;img src=x onerror=alert(1)&gt;\u2069 · PerfLab</title>");
    }

    @Test
    void historyChartRendersWithTheChangePointInABrowser() throws Exception {
        uploadSeries("history-browser", "<b>c</b>-");
        ChromeDriver browser = HeadlessChromium.start(profile);
        try {
            browser.get(base() + "/benchmarks/history-browser");
            new WebDriverWait(browser, Duration.ofSeconds(60))
                    .until(d -> !d.findElements(By.cssSelector("#chart-history svg path")).isEmpty());
            String svgText = (String) ((JavascriptExecutor) browser).executeScript(
                    "return document.querySelector('#chart-history svg').textContent;");
            assertThat(svgText).contains("change point");
            String tooltip = (String) ((JavascriptExecutor) browser).executeScript("return echarts.getInstanceByDom("
                    + "document.getElementById('chart-history')).getOption().tooltip[0].formatter({dataIndex: 0});");
            assertThat(tooltip).as("the uploader's commit is text in the HTML tooltip")
                    .startsWith("&lt;b&gt;c&lt;/b&gt;-0<br>");
            // a change point's tooltip names the upload its line is drawn at, not the upload of its own number
            String changePoint = (String) ((JavascriptExecutor) browser).executeScript("var at = JSON.parse("
                    + "document.getElementById('history-data').textContent).changePoints[0];"
                    + "return at + ' ' + echarts.getInstanceByDom(document.getElementById('chart-history')).getOption()"
                    + ".tooltip[0].formatter({componentType: 'markLine', dataIndex: 0, data: {xAxis: at}});");
            String at = changePoint.substring(0, changePoint.indexOf(' '));
            assertThat(at).isNotEqualTo("0");
            assertThat(changePoint).isEqualTo(at + " change point at &lt;b&gt;c&lt;/b&gt;-" + at);
            assertThat(browser.findElements(By.cssSelector("table.data tbody tr"))).hasSize(10);
        } finally {
            browser.quit();
        }
    }
}
