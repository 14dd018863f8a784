package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.HeadlessChromium;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import io.perflab.upload.UploadServer;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a real browser with a real experiment: sign in, create a 6 + 6 engine experiment from the form
 * with a preset and short trials, watch the progress bar advance to completion without a reload, then check that
 * the results page leads with the answer at 1280 px and stays usable at 390 px, and leave screenshots of both in
 * {@link #SCREENSHOTS} for people to look at.
 */
class DashboardBrowserTests extends UploadServer {

    /** Where the screenshots of the experiment page are left. */
    static final Path SCREENSHOTS = Path.of("src/target/screenshots");

    @TempDir
    Path profile;

    ChromeDriver browser;

    @Autowired
    ExperimentRepository store;

    @BeforeEach
    void startBrowser() throws IOException {
        browser = HeadlessChromium.start(profile);
    }

    @AfterEach
    void quitBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    private void signIn() throws IOException {
        browser.get(base() + "/login");
        browser.findElement(By.id("username")).sendKeys("admin");
        browser.findElement(By.id("password")).sendKeys(
                Files.readString(dataDir.resolve("initial-admin-password")).strip());
        browser.findElement(By.cssSelector("form.form button[type=submit]")).click();
        new WebDriverWait(browser, Duration.ofSeconds(30))
                .until(d -> d.getPageSource().contains("Signed in as"));
    }

    @Test
    void realExperimentRunsWithLiveProgressAndItsPageLeadsWithTheAnswerAtEveryWidth() throws IOException {
        signIn();
        browser.get(base() + "/experiments/new");
        browser.findElement(By.id("name")).clear();
        browser.findElement(By.id("name")).sendKeys("sync completion, 6 + 6 short trials");
        browser.findElement(By.cssSelector("input[name=preset][value=sync-completion]")).click();
        browser.findElement(By.name("workload[clientThreads]")).sendKeys("4");
        browser.findElement(By.name("workload[warmupSeconds]")).sendKeys("0.3");
        browser.findElement(By.name("workload[runSeconds]")).sendKeys("0.5");
        new Select(browser.findElement(By.name("design"))).selectByValue("fresh");
        WebElement runs = browser.findElement(By.id("runsPerVariant"));
        runs.clear();
        runs.sendKeys("6");
        browser.findElement(By.cssSelector("button.primary")).click();

        new WebDriverWait(browser, Duration.ofSeconds(30))
                .until(d -> d.getCurrentUrl().matches(".*/experiments/\\d+$"));
        // A marker that a page load would wipe out: it proves the page updates itself.
        browser.executeScript("window.perflabNoReload = true;");
        assertThat(browser.findElement(By.cssSelector(".panel progress")).getAttribute("max")).isEqualTo("12");
        new WebDriverWait(browser, Duration.ofMinutes(3)).pollingEvery(Duration.ofMillis(200))
                .until(d -> Integer.parseInt(d.findElement(By.cssSelector(".panel progress"))
                        .getAttribute("value")) > 0);
        new WebDriverWait(browser, Duration.ofMinutes(5)).pollingEvery(Duration.ofMillis(500))
                .until(d -> d.findElements(By.cssSelector("#results table.results")).size() == 1);

        assertThat(browser.executeScript("return window.perflabNoReload === true;")).isEqualTo(true);
        assertThat(browser.findElement(By.cssSelector(".panel progress")).getAttribute("value")).isEqualTo("12");
        assertThat(browser.findElement(By.cssSelector("h1 .status")).getText()).isEqualTo("COMPLETED");
        List<WebElement> rows = browser.findElements(By.cssSelector("#results table.results tbody.metric"));
        assertThat(rows).hasSizeGreaterThanOrEqualTo(13);
        assertThat(rows.get(0).getAttribute("data-metric")).isEqualTo(MetricKeys.USER_CPU_US_PER_REQ);
        // the plots came with the results, drawn by the server: a forest plot and two per metric
        assertThat(browser.findElements(By.cssSelector("#results svg.chart"))).hasSize(1 + 2 * rows.size());

        // the page as it loads fresh, which is what people see
        browser.navigate().refresh();
        atWidth(1280);
        screenshot("experiment-1280.png");
        assertThat(number("return document.documentElement.scrollWidth - document.documentElement.clientWidth"))
                .as("page overflow at 1280 px").isLessThanOrEqualTo(0);
        assertThat(number("const t = document.getElementById('results-table');"
                + " return t.scrollWidth - t.parentElement.clientWidth"))
                .as("results table wider than its container at 1280 px").isLessThanOrEqualTo(0);
        assertHeadlineVerdictsVisible();

        atWidth(390);
        screenshot("experiment-390.png");
        assertThat(number("return document.documentElement.scrollWidth - document.documentElement.clientWidth"))
                .as("page overflow at 390 px").isLessThanOrEqualTo(0);
        assertThat(number("return document.body.scrollWidth - document.documentElement.clientWidth"))
                .as("body overflow at 390 px").isLessThanOrEqualTo(0);
        assertHeadlineVerdictsVisible();

        formEstimatesWhatASizeWouldDetectFrom(browser.getCurrentUrl().replaceAll(".*/experiments/(\\d+)$", "$1"));
    }

    /** The form, for the preset just run: the fresh design's hint names that experiment and follows the runs. */
    private void formEstimatesWhatASizeWouldDetectFrom(String experimentId) {
        atWidth(1280);
        browser.get(base() + "/experiments/new?preset=sync-completion");
        new Select(browser.findElement(By.name("design"))).selectByValue("fresh");
        WebElement hint = browser.findElement(By.id("mde-hint"));
        assertThat(hint.isDisplayed()).isTrue();
        assertThat(browser.findElement(By.id("mde-none")).isDisplayed()).isFalse();
        assertThat(hint.findElement(By.cssSelector(".mde-link")).getText()).isEqualTo("#" + experimentId);
        String size = hint.findElement(By.cssSelector(".mde-size")).getText();
        assertThat(size).matches("[2-6] runs per variant");      // 6, unless a trial failed
        WebElement runs = browser.findElement(By.id("runsPerVariant"));
        runs.clear();
        runs.sendKeys(size.substring(0, 1));
        String base = hint.findElement(By.cssSelector(".mde-base")).getText();
        assertThat(hint.findElement(By.cssSelector(".mde-estimate")).getText()).isEqualTo(base);
        runs.clear();
        runs.sendKeys("24");
        double at24 = Double.parseDouble(hint.findElement(By.cssSelector(".mde-estimate")).getText()
                .replaceAll("[±%]", ""));
        assertThat(at24).isPositive().isLessThan(Double.parseDouble(base.replaceAll("[±%]", "")) / 2);
    }

    /**
     * The form's estimate was found for the preset and windows per pair the form was drawn with: another preset,
     * or a paired design's other windows per pair, hides it and says so, where it went on quoting an experiment of
     * other settings.
     */
    @Test
    void theFormsEstimateGivesWayWhenThePresetOrWindowsPerPairItWasFoundForChange() throws IOException {
        long id = storeCompletedFreshExperiment("pooled-buffers");
        signIn();
        browser.get(base() + "/experiments/new?preset=pooled-buffers");
        Select design = new Select(browser.findElement(By.name("design")));
        design.selectByValue("fresh");
        WebElement hint = browser.findElement(By.id("mde-hint"));
        WebElement none = browser.findElement(By.id("mde-none"));
        WebElement otherSettings = browser.findElement(By.id("mde-other-settings"));
        WebElement windows = browser.findElement(By.id("windowsPerPair"));
        String windowsDrawnWith = windows.getAttribute("value");
        assertThat(hint.isDisplayed()).isTrue();
        assertThat(hint.findElement(By.cssSelector(".mde-link")).getText()).isEqualTo("#" + id);
        assertThat(otherSettings.isDisplayed()).isFalse();

        windows.clear();
        windows.sendKeys("7");
        assertThat(hint.isDisplayed()).as("the fresh design's estimate has no windows per pair").isTrue();
        browser.findElement(By.cssSelector("input[name=preset][value=sync-completion]")).click();
        assertThat(hint.isDisplayed()).as("another preset").isFalse();
        assertThat(none.isDisplayed()).isFalse();
        assertThat(otherSettings.isDisplayed()).isTrue();
        browser.findElement(By.cssSelector("input[name=preset][value=pooled-buffers]")).click();
        assertThat(hint.isDisplayed()).as("the preset drawn with again").isTrue();
        assertThat(otherSettings.isDisplayed()).isFalse();

        design.selectByValue("alternating");
        assertThat(otherSettings.isDisplayed()).as("a paired design with other windows per pair").isTrue();
        assertThat(none.isDisplayed()).isFalse();
        windows.clear();
        windows.sendKeys(windowsDrawnWith);
        assertThat(otherSettings.isDisplayed()).as("the windows per pair drawn with again").isFalse();
    }

    /** The plan's fields of the design not chosen are greyed out and say so in their legend; they stay editable. */
    @Test
    void theFormMarksThePlanFieldsTheChosenDesignDoesNotUse() throws IOException {
        signIn();
        browser.get(base() + "/experiments/new");
        WebElement paired = browser.findElement(By.cssSelector("fieldset.paired-fields"));
        WebElement fresh = browser.findElement(By.cssSelector("fieldset.fresh-fields"));

        assertThat(fresh.getAttribute("class")).contains("not-applicable");
        assertThat(fresh.findElement(By.tagName("legend")).getText())
                .isEqualTo("Fresh design only (not used by the alternating design)");
        assertThat(paired.getAttribute("class")).doesNotContain("not-applicable");
        new Select(browser.findElement(By.name("design"))).selectByValue("fresh");
        assertThat(fresh.getAttribute("class")).doesNotContain("not-applicable");
        assertThat(paired.getAttribute("class")).contains("not-applicable");
        assertThat(paired.findElement(By.tagName("legend")).getText())
                .isEqualTo("Alternating and duet designs only (not used by the fresh design)");
        assertThat(browser.findElement(By.id("pairs")).isEnabled()).isTrue();
    }

    /** A completed fresh engine experiment of {@code preset}, 8 + 8 runs of CPU per request, stored directly. */
    private long storeCompletedFreshExperiment(String preset) {
        Workload workload = Workload.DEFAULTS;
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(Map.of(), workload),
                EngineVariant.of(Map.of("completion", "notification"), workload), 8);
        long id = StoredExperiments.insert(store, new ExperimentSpec("stored for the form's estimate", null,
                ExperimentKind.ENGINE, preset, plan), ExperimentStatus.RUNNING, "admin", Instant.now());
        Random random = new Random(11);
        for (int ordinal = 0; ordinal < 16; ordinal++) {
            Map<String, Double> metrics = Map.of(MetricKeys.CPU_US_PER_REQ, 30 + random.nextGaussian() * 0.3);
            store.saveRun(id, new TrialResult(ordinal % 2 == 0 ? "without" : "with", ordinal, TrialStatus.OK,
                    Instant.now(), Instant.now(), 100L + ordinal, metrics, Map.of("host", "test-host"), null));
        }
        store.transition(id, ExperimentStatus.RUNNING, ExperimentStatus.COMPLETED, Instant.now(), null);
        return id;
    }

    @Test
    void pagesRenderAtPhoneWidthWithoutHorizontalOverflowOfTheLayout() throws IOException {
        atWidth(390);
        browser.get(base() + "/");
        assertThat(number("return document.documentElement.scrollWidth - document.documentElement.clientWidth"))
                .isLessThanOrEqualTo(0);
        signIn();
        browser.get(base() + "/experiments/new");
        assertThat(browser.findElements(By.cssSelector("input[name=preset]"))).hasSize(5);
    }

    /**
     * A name of 200 characters without a space (which uploads and experiments take) wrapped nowhere: the lists' name
     * column took the page's width, and every other column of every row was pushed off to the right.
     */
    @Test
    void aLongNameWrapsInItsCellAndLeavesTheListsOtherColumnsOnTheScreen() throws Exception {
        HttpResponse<String> created = post("/api/v1/uploads?name=" + "W".repeat(200), ADMIN_TOKEN,
                "application/json", "{\"benchmark\":\"long\",\"without\":{\"metrics\":{\"t\":[1,2,3]}},"
                        + "\"with\":{\"metrics\":{\"t\":[1,2,4]}}}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        signIn();
        atWidth(1280);
        for (String page : List.of("/experiments", "/")) {
            browser.get(base() + page);
            assertThat(number("const t = document.querySelector('table.data');"
                    + " return t.scrollWidth - t.parentElement.clientWidth"))
                    .as("list table wider than its container on " + page).isLessThanOrEqualTo(0);
            assertThat(number("const h = [...document.querySelectorAll('table.data thead th')].pop();"
                    + " return h.getBoundingClientRect().right - document.documentElement.clientWidth"))
                    .as("last column beyond the screen on " + page).isLessThanOrEqualTo(0);
            // the name's column takes what the others leave: a time stays on one line
            assertThat(number("const r = document.createRange();"
                    + " r.selectNodeContents(document.querySelector('table.data tbody td.time'));"
                    + " return r.getClientRects().length"))
                    .as("lines of a row's time on " + page).isEqualTo(1);
        }
    }

    /**
     * A name stored before names were checked (with a right-to-left override) reorders only itself: on the
     * experiment page, the list, the home page and the exported report, each piece of text holding it is inside an
     * inline bidi isolate, or the only text of its block, so the words after it are not turned around.
     */
    @Test
    void aStoredNameThatReordersTextReordersOnlyItself() throws Exception {
        HttpResponse<String> created = post("/api/v1/uploads", ADMIN_TOKEN, "application/json",
                "{\"benchmark\":\"bidi\",\"without\":{\"metrics\":{\"t\":[1,2,3]}},"
                        + "\"with\":{\"label\":\"fast\",\"metrics\":{\"t\":[1,2,4]}}}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        long id = read(created.body()).get("experimentId").asLong();
        jdbc.sql("UPDATE experiment SET name = ? WHERE id = ?").params("legacy \u202egnp.exe", id).update();
        jdbc.sql("UPDATE variant SET label = ? WHERE experiment_id = ? AND name = 'with'")
                .params("fa\u202est", id).update();
        signIn();
        for (String page : List.of("/experiments/" + id, "/experiments", "/",
                "/api/v1/experiments/" + id + "/report.html")) {
            browser.get(base() + page);
            @SuppressWarnings("unchecked")
            List<Object> found = (List<Object>) browser.executeScript("""
                    const shown = [], leaking = [];
                    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
                    while (walk.nextNode()) {
                      const text = walk.currentNode;
                      if (!text.data.includes('\\u202e')) continue;
                      const element = text.parentElement;
                      const style = getComputedStyle(element);
                      shown.push(element.tagName);
                      const isolated = style.display.startsWith('inline')
                          ? style.unicodeBidi === 'isolate' || style.unicodeBidi === 'isolate-override'
                          : element.textContent.trim() === text.data.trim();
                      if (!isolated) leaking.push(element.outerHTML);
                    }
                    return [shown.length, leaking];""");
            assertThat(((Number) found.get(0)).intValue()).as("texts with the override on " + page).isPositive();
            assertThat((List<?>) found.get(1)).as("elements whose override reaches the text after them on " + page)
                    .isEmpty();
        }
    }

    /** Lays the page out as a screen {@code width} CSS pixels wide (phones included: no minimum window size). */
    private void atWidth(int width) {
        browser.executeCdpCommand("Emulation.setDeviceMetricsOverride", Map.of("width", width, "height", 900,
                "deviceScaleFactor", 1, "mobile", width < 600));
    }

    /** Each headline metric's verdict in the answer at the top is shown, inside the screen's width. */
    private void assertHeadlineVerdictsVisible() {
        for (String metric : MetricKeys.HEADLINE) {
            WebElement verdict = browser.findElement(By.xpath("//table[contains(@class,'headline')]"
                    + "//tr[th/span[text()='" + metric + "']]//span[contains(@class,'verdict')]"));
            assertThat(verdict.isDisplayed()).as(metric + " verdict shown").isTrue();
            assertThat(verdict.getText()).as(metric + " verdict").isIn("improved", "regressed", "unchanged",
                    "inconclusive");
            assertThat(number("const r = arguments[0].getBoundingClientRect();"
                    + " return r.right <= document.documentElement.clientWidth && r.left >= 0 ? 1 : 0", verdict))
                    .as(metric + " verdict within the screen's width").isEqualTo(1);
        }
    }

    /** The whole page at the width it is laid out for, then the screen as it was. */
    private void screenshot(String name) throws IOException {
        long height = number("return document.documentElement.scrollHeight");
        long width = number("return window.innerWidth");
        browser.executeCdpCommand("Emulation.setDeviceMetricsOverride", Map.of("width", width,
                "height", Math.min(height, 16_000), "deviceScaleFactor", 1, "mobile", width < 600));
        Files.createDirectories(SCREENSHOTS);
        Files.write(SCREENSHOTS.resolve(name), browser.getScreenshotAs(OutputType.BYTES));
        atWidth((int) width);
    }

    private long number(String script, Object... arguments) {
        return ((Number) browser.executeScript(script, arguments)).longValue();
    }
}
