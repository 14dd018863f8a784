package io.perflab.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.HeadlessChromium;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import tools.jackson.databind.JsonNode;

/**
 * The exported HTML report saved to disk and opened from {@code file://} in headless Chromium with the network
 * cut off (offline emulation, an unreachable proxy, no name resolution): its charts and tables render and it
 * makes no request at all. Debian's Chromium and ChromeDriver are used by path, so nothing is downloaded.
 */
class ReportBrowserTests extends ReportTestSupport {


    /** Where a screenshot of the rendered report is left for people to look at. */
    static final Path SCREENSHOTS = Path.of("src/target/report-screenshots");

    @TempDir
    Path dir;

    private ChromeDriver chrome;

    @BeforeEach
    void startChromium() throws Exception {
        chrome = HeadlessChromium.start(dir, options -> {
            // No way out: every request would go to a closed port, and no name resolves.
            options.addArguments("--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
                    "--host-resolver-rules=MAP * ~NOTFOUND");
            LoggingPreferences logs = new LoggingPreferences();
            logs.enable(LogType.PERFORMANCE, Level.ALL);
            logs.enable(LogType.BROWSER, Level.ALL);
            options.setCapability("goog:loggingPrefs", logs);
        });
        chrome.executeCdpCommand("Network.enable", Map.of());
        chrome.executeCdpCommand("Network.emulateNetworkConditions", Map.of("offline", true, "latency", 0,
                "downloadThroughput", -1, "uploadThroughput", -1));
        // Start from a blank page and drop what the browser logged while it opened its first tab.
        chrome.get("about:blank");
        chrome.manage().logs().get(LogType.PERFORMANCE);
        chrome.manage().logs().get(LogType.BROWSER);
    }

    @AfterEach
    void stopChromium() {
        if (chrome != null) {
            chrome.quit();
        }
    }

    @Test
    void exportedReportRendersChartsAndTablesFromDiskWithoutAnyRequest() throws Exception {
        long id = ReportFixtures.store(store, jdbc, ReportFixtures.Shape.seedLike("notification completion"), 12);
        Path file = save(id);

        chrome.get(file.toUri().toString());

        assertThat(chrome.getTitle()).isEqualTo("PerfLab experiment " + id + ": \u2068notification completion\u2069");
        assertThat(number("return document.querySelectorAll('svg.chart').length")).isEqualTo(1 + 2 * 6);
        assertThat(number("return Array.from(document.querySelectorAll('svg.chart'))"
                + ".filter(s => s.getBoundingClientRect().width > 100 && s.getBoundingClientRect().height > 100"
                + " && s.querySelectorAll('circle, rect, line').length > 10).length")).isEqualTo(1 + 2 * 6);
        assertThat(number("return document.querySelectorAll('#forest circle').length")).isEqualTo(6);
        assertThat(number("return document.querySelectorAll('#strip-1 circle').length")).isEqualTo(11);
        assertThat(number("return document.querySelectorAll('#order-1 rect').length")).isEqualTo(12 + 1);
        assertThat(number("return document.querySelectorAll('#results-table tbody.metric').length")).isEqualTo(6);
        assertThat(number("return document.querySelectorAll('table').length")).isGreaterThanOrEqualTo(6);
        assertThat(number("return JSON.parse(document.getElementById('perflab-samples').textContent)"
                + ".metrics.user_cpu_us_per_req.with.length")).isEqualTo(12);
        assertThat(number("return performance.getEntriesByType('resource').length")).isZero();
        assertNoRequestBeyond(file);
        assertThat(severeConsoleMessages()).isEmpty();
        screenshot("experiment-report.png");
    }

    @Test
    void hostileNamesStayTextInTheBrowser() throws Exception {
        long id = ReportFixtures.store(store, jdbc, ReportEscapingTests.hostile(), 6);
        Path file = save(id);

        chrome.get(file.toUri().toString());

        assertThat(chrome.getTitle())
                .isEqualTo("PerfLab experiment " + id + ": \u2068" + ReportEscapingTests.NAME + "\u2069");
        assertThat(number("return document.querySelectorAll('img, iframe, object, embed, i').length")).isZero();
        assertThat(number("return document.scripts.length")).isEqualTo(1);
        assertThat(chrome.executeScript("return document.querySelector('h1').textContent"))
                .isEqualTo(ReportEscapingTests.NAME);
        assertThat(chrome.executeScript("return Object.keys(JSON.parse("
                + "document.getElementById('perflab-samples').textContent).metrics)"))
                .asList().contains(ReportEscapingTests.METRIC);
        assertThat(number("return document.querySelectorAll('svg.chart').length")).isEqualTo(1 + 2 * 7);
        assertThat(number("return performance.getEntriesByType('resource').length")).isZero();
        assertNoRequestBeyond(file);
    }

    private Path save(long id) throws Exception {
        String html = get("/api/v1/experiments/" + id + "/report.html").body();
        Path file = dir.resolve("perflab-experiment-" + id + ".html");
        Files.writeString(file, html);
        return file;
    }

    private long number(String script) {
        return ((Number) chrome.executeScript(script)).longValue();
    }

    /** The page's own navigation is the only request; nothing failed (a blocked request would show here). */
    private void assertNoRequestBeyond(Path file) {
        List<String> requested = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        Map<String, String> urls = new java.util.HashMap<>();
        for (LogEntry entry : chrome.manage().logs().get(LogType.PERFORMANCE)) {
            JsonNode message = json.readTree(entry.getMessage()).get("message");
            String method = message.get("method").asText();
            if (method.equals("Network.requestWillBeSent")) {
                requested.add(message.get("params").get("request").get("url").asText());
                urls.put(message.get("params").get("requestId").asText(),
                        message.get("params").get("request").get("url").asText());
            } else if (method.equals("Network.loadingFailed")) {
                failed.add(urls.get(message.get("params").get("requestId").asText()) + " "
                        + message.get("params").toString());
            }
        }
        assertThat(failed).as("failed requests").isEmpty();
        assertThat(requested).as("requests").allSatisfy(url -> assertThat(url).isEqualTo(file.toUri().toString()));
    }

    private List<String> severeConsoleMessages() {
        return chrome.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.WARNING.intValue())
                .map(LogEntry::getMessage)
                .toList();
    }

    private void screenshot(String name) throws Exception {
        long height = number("return document.documentElement.scrollHeight");
        chrome.manage().window().setSize(new Dimension(1280, (int) Math.min(height, 12_000)));
        Files.createDirectories(SCREENSHOTS);
        Files.write(SCREENSHOTS.resolve(name), chrome.getScreenshotAs(OutputType.BYTES));
    }
}
