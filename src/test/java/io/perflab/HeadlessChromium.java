package io.perflab;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's Chromium driven through its own ChromeDriver (paths set explicitly, so Selenium downloads nothing),
 * headless, with the background traffic that this machine's closed network would refuse switched off.
 */
public final class HeadlessChromium {

    public static final String CHROMIUM = "/usr/bin/chromium";
    public static final String CHROMEDRIVER = "/usr/bin/chromedriver";

    private HeadlessChromium() {
    }

    /** Skips the calling test, saying why, when Chromium or its driver is not installed. */
    public static void assumeInstalled() {
        boolean present = Files.isExecutable(Path.of(CHROMIUM)) && Files.isExecutable(Path.of(CHROMEDRIVER));
        if (!present) {
            System.out.println("Browser test skipped: " + CHROMIUM + " or " + CHROMEDRIVER + " is missing "
                    + "(install Debian's chromium and chromium-driver, as .ci/run does)");
        }
        assumeTrue(present, CHROMIUM + " or " + CHROMEDRIVER + " is missing");
    }

    /** Starts a browser with a fresh profile under {@code profileParent}. */
    public static ChromeDriver start(Path profileParent, String... extraArguments) throws IOException {
        return start(profileParent, options -> options.addArguments(extraArguments));
    }

    /** Starts a browser with a fresh profile under {@code profileParent}; {@code customize} adds options. */
    public static ChromeDriver start(Path profileParent, Consumer<ChromeOptions> customize) throws IOException {
        assumeInstalled();
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER))
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--window-size=1280,1000",
                "--user-data-dir=" + Files.createDirectories(profileParent.resolve("chromium-profile")));
        customize.accept(options);
        return new ChromeDriver(service, options);
    }
}
