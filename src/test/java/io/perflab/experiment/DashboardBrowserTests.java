package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.HeadlessChromium;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The dashboard in a real browser: sign in, create an experiment from the form with a preset and short trials,
 * watch the progress bar advance to completion without a reload, then see the results table and the charts.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class DashboardBrowserTests {

    static Path dataDir;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        dataDir = Files.createTempDirectory("perflab-browser");
        registry.add("perflab.data-dir", dataDir::toString);
    }

    @LocalServerPort
    int port;

    @TempDir
    Path profile;

    ChromeDriver browser;

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

    private String url(String path) {
        return "http://localhost:" + port + path;
    }

    private void signIn() throws IOException {
        browser.get(url("/login"));
        browser.findElement(By.id("username")).sendKeys("admin");
        browser.findElement(By.id("password")).sendKeys(
                Files.readString(dataDir.resolve("initial-admin-password")).strip());
        browser.findElement(By.cssSelector("form.form button[type=submit]")).click();
        new WebDriverWait(browser, Duration.ofSeconds(30))
                .until(d -> d.getPageSource().contains("Signed in as"));
    }

    @Test
    void experimentFromTheFormRunsWithLiveProgressAndShowsResultsAndCharts() throws IOException {
        signIn();
        browser.get(url("/experiments/new"));
        browser.findElement(By.id("name")).clear();
        browser.findElement(By.id("name")).sendKeys("browser sync completion");
        browser.findElement(By.cssSelector("input[name=preset][value=sync-completion]")).click();
        browser.findElement(By.name("workload[clientThreads]")).sendKeys("4");
        browser.findElement(By.name("workload[warmupSeconds]")).sendKeys("0.3");
        browser.findElement(By.name("workload[runSeconds]")).sendKeys("1");
        WebElement runs = browser.findElement(By.id("runsPerVariant"));
        runs.clear();
        runs.sendKeys("2");
        browser.findElement(By.cssSelector("button.primary")).click();

        new WebDriverWait(browser, Duration.ofSeconds(30)).until(d -> d.getCurrentUrl().matches(".*/experiments/\\d+$"));
        JavascriptExecutor js = browser;
        // A marker that a page load would wipe out: it proves the page updates itself.
        js.executeScript("window.perflabNoReload = true;");
        WebElement progress = browser.findElement(By.cssSelector(".panel progress"));
        assertThat(progress.getAttribute("max")).isEqualTo("4");

        new WebDriverWait(browser, Duration.ofMinutes(3)).pollingEvery(Duration.ofMillis(200))
                .until(d -> Integer.parseInt(d.findElement(By.cssSelector(".panel progress")).getAttribute("value")) > 0);
        new WebDriverWait(browser, Duration.ofMinutes(3)).pollingEvery(Duration.ofMillis(500))
                .until(d -> d.findElements(By.cssSelector("#results table.results")).size() == 1);

        assertThat(js.executeScript("return window.perflabNoReload === true;")).isEqualTo(true);
        assertThat(browser.findElement(By.cssSelector(".panel progress")).getAttribute("value")).isEqualTo("4");
        assertThat(browser.findElement(By.cssSelector("h1 .status")).getText()).isEqualTo("COMPLETED");
        List<WebElement> rows = browser.findElements(By.cssSelector("#results table.results tbody"));
        assertThat(rows).hasSizeGreaterThanOrEqualTo(13);
        assertThat(rows.get(0).getAttribute("data-metric")).isEqualTo("user_cpu_us_per_req");

        new WebDriverWait(browser, Duration.ofSeconds(30))
                .until(d -> d.findElements(By.cssSelector(".chart.strip svg")).size() >= 13);
        Long drawn = (Long) js.executeScript(
                "return document.querySelectorAll('#chart-forest svg path, #chart-forest svg circle').length;");
        assertThat(drawn).isGreaterThan(5);
        Long points = (Long) js.executeScript(
                "return document.querySelector('.chart.order svg').querySelectorAll('path').length;");
        assertThat(points).isGreaterThan(4);
    }

    @Test
    void pagesRenderAtPhoneWidthWithoutHorizontalOverflowOfTheLayout() throws IOException {
        browser.manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
        browser.get(url("/"));
        Long overflow = (Long) ((JavascriptExecutor) browser).executeScript(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth;");
        assertThat(overflow).isLessThanOrEqualTo(0L);
        browser.get(url("/experiments/new"));
        assertThat(browser.findElements(By.cssSelector("input[name=preset]"))).hasSize(5);
    }
}
