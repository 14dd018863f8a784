package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.HeadlessChromium;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The experiment page's live script ({@code static/js/live.js}) in a real browser, fed the events the service
 * publishes (payloads as {@link ClaimedRuns} writes them) through a stand-in for {@code EventSource}: the panel is
 * the progress fragment as {@code fragments/experiment.html} renders it for a running experiment.
 */
class LiveScriptBrowserTests {

    private static final Path SCRIPT = Path.of("src/main/resources/static/js/live.js");

    @TempDir
    Path dir;

    ChromeDriver browser;

    @BeforeEach
    void openPage() throws IOException {
        browser = HeadlessChromium.start(dir);
        Path script = SCRIPT.toAbsolutePath();
        if (!Files.exists(script)) {
            script = Path.of("..").resolve(SCRIPT).toAbsolutePath().normalize();
        }
        Path page = dir.resolve("experiment.html");
        Files.writeString(page, """
                <!DOCTYPE html><html><head><meta charset="utf-8"><script>
                  window.sources = [];
                  window.EventSource = function (url) {
                    this.url = url; this.listeners = {}; this.closed = false; window.sources.push(this);
                  };
                  EventSource.prototype.addEventListener = function (name, f) { this.listeners[name] = f; };
                  EventSource.prototype.close = function () { this.closed = true; };
                  window.emit = function (name, data) {
                    window.sources.forEach(function (s) {
                      if (s.listeners[name]) { s.listeners[name]({ data: JSON.stringify(data) }); }
                    });
                  };
                </script></head><body>
                <section class="experiment" data-experiment-id="5" data-status="RUNNING">
                  <h1><span>duet</span> <span class="status status-running">RUNNING</span></h1>
                  <div class="panel live" data-live-experiment="5" data-headline="cpu_us_per_req">
                    <div class="progress-block" data-experiment-id="5">
                      <progress max="12" value="4">4</progress>
                      <span class="progress-text">
                        <span class="done">4</span> of <span class="total">12</span> runs
                        <span class="eta">· about 40 s left</span>
                      </span>
                    </div>
                    <p class="last-trial hint">Last trial:
                      <span class="last-trial-figures">waiting for the next trial…</span></p>
                  </div>
                  <div class="actions">
                    <form action="/experiments/5/cancel" method="post"><button type="submit">Cancel</button></form>
                    <a href="/experiments/5/sign-in" class="button-link sign-in-to-act">Sign in to cancel or re-run</a>
                  </div>
                </section>
                <script src="%s"></script>
                </body></html>""".formatted(script.toUri()));
        browser.get(page.toUri().toString());
    }

    @AfterEach
    void quitBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void aStoredPairIsToldAsThePairNotAsARunWithoutOrdinalOrVariant() {
        // ClaimedRuns.pairStored: a remote agent's posted pair, told as "pair" and as "run"
        browser.executeScript("emit('run', {experimentId: 5, completedRuns: 8, totalRuns: 12, failedRuns: 0, "
                + "pair: 1, status: 'OK', completedPairs: 2, pairs: 3, agentId: 7});");

        assertThat(text(".done")).isEqualTo("8");
        assertThat(text(".last-trial-figures")).doesNotContain("undefined").isEqualTo("pair 1 (2 of 3 stored) OK");
    }

    @Test
    void aFailedRunShowsBesideTheProgressAsTheRenderedPageShowsIt() {
        browser.executeScript("emit('run', {experimentId: 5, ordinal: 4, variant: 'without', status: 'FAILED', "
                + "completedRuns: 5, totalRuns: 12, failedRuns: 1, metrics: {}, error: 'exit 1'});");

        assertThat(text(".progress-text .failed-count")).isEqualTo("(1 failed)");
        assertThat(text(".last-trial-figures")).as("no figures, so no colon before them")
                .isEqualTo("run 4 (without) FAILED — exit 1");
    }

    @Test
    void theTimeLeftFollowsTheEstimateEachEventCarries() {
        assertThat(text(".eta")).as("as the page was rendered").isEqualTo("· about 40 s left");

        browser.executeScript("emit('run', {experimentId: 5, ordinal: 4, variant: 'without', status: 'OK', "
                + "completedRuns: 5, totalRuns: 12, failedRuns: 0, etaSeconds: 35, metrics: {cpu_us_per_req: 30}});");
        assertThat(text(".eta")).isEqualTo("· about 35 s left");

        // an event without an estimate (the service has none) clears the last one rather than keeping it
        browser.executeScript("emit('run', {experimentId: 5, ordinal: 5, variant: 'with', status: 'OK', "
                + "completedRuns: 6, totalRuns: 12, failedRuns: 0, etaSeconds: null, metrics: {}});");
        assertThat(text(".eta")).isEmpty();
    }

    @Test
    void aFinishedExperimentShowsNoTimeLeftAndNoCancel() {
        browser.executeScript("emit('status', {experimentId: 5, status: 'CANCELLED'});");

        assertThat(text("h1 .status")).isEqualTo("CANCELLED");
        assertThat(text(".eta")).as("the time left when it ran").isEmpty();
        assertThat(browser.findElements(By.cssSelector("form[action='/experiments/5/cancel']"))).isEmpty();
    }

    /**
     * A visitor's link kept offering to cancel once the experiment had ended; it leads to the experiment's page
     * after sign-in whatever the status, so only its words follow the status.
     */
    @Test
    void aVisitorsSignInLinkSaysWhatTheStatusNowAllows() {
        browser.executeScript("emit('status', {experimentId: 5, status: 'RUNNING'});");
        assertThat(text("a.sign-in-to-act")).isEqualTo("Sign in to cancel or re-run");

        browser.executeScript("emit('status', {experimentId: 5, status: 'FAILED'});");
        assertThat(text("a.sign-in-to-act")).isEqualTo("Sign in to resume or re-run");
        assertThat(browser.findElement(By.cssSelector("a.sign-in-to-act")).getDomAttribute("href"))
                .isEqualTo("/experiments/5/sign-in");
    }

    @Test
    void aCompletedExperimentsSignInLinkOffersOnlyToRunItAgain() {
        browser.executeScript("emit('status', {experimentId: 5, status: 'COMPLETED'});");

        assertThat(text("a.sign-in-to-act")).isEqualTo("Sign in to re-run");
    }

    private String text(String selector) {
        return browser.findElement(By.cssSelector(selector)).getText();
    }
}
