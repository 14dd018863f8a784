package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.agent.HostLabels;
import io.perflab.paired.PairedInput;
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
import io.perflab.upload.Fixtures;
import io.perflab.upload.UploadServer;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The dashboard's experiment pages through the whole server (no trial JVMs: runs are stored directly): the
 * stored experiment's page, the lists, sign-in and the form. What the detail page shows is the slice test's
 * ({@link ExperimentPageTests}).
 */
class ExperimentPagesTests extends UploadServer {

    static final String HOSTILE = "<img src=x onerror=alert(1)>";

    /** A JVM flag that could run a program, which no request may give while raw flags are off (the default). */
    static final String ON_OUT_OF_MEMORY = "-XX:OnOutOfMemoryError=touch /tmp/perflab-page-tests";

    @Autowired
    ExperimentRepository store;

    /** A completed engine experiment whose 'with' side is ~5 % cheaper in user CPU, plus one failed run. */
    long storeCompletedExperiment(String name, String extraMetric) {
        Workload workload = Workload.DEFAULTS;
        ExperimentPlan plan = ExperimentPlan.of(
                EngineVariant.of(Map.of("completion", "monitor"), workload),
                EngineVariant.of(Map.of("completion", "notification"), workload), 5);
        long id = StoredExperiments.insert(store, new ExperimentSpec(name, "a description " + HOSTILE,
                ExperimentKind.ENGINE, "sync-completion", plan), ExperimentStatus.RUNNING, "admin", Instant.now());
        Random random = new Random(7);
        for (int ordinal = 0; ordinal < 10; ordinal++) {
            String variant = ordinal % 2 == 0 ? "without" : "with";
            double scale = variant.equals("with") ? 0.95 : 1.0;
            Map<String, Double> metrics = new LinkedHashMap<>();
            metrics.put("user_cpu_us_per_req", scale * (20 + random.nextGaussian() * 0.2));
            metrics.put("sys_cpu_us_per_req", 40 + random.nextGaussian() * 0.5);
            metrics.put("ctx_switches_per_req", 4.5 + random.nextGaussian() * 0.05);
            metrics.put("reqs_per_sec", 50_000 + random.nextGaussian() * 500);
            if (extraMetric != null) {
                metrics.put(extraMetric, 1 + random.nextGaussian() * 0.01);
            }
            TrialStatus status = ordinal == 9 ? TrialStatus.FAILED : TrialStatus.OK;
            store.saveRun(id, new TrialResult(variant, ordinal, status, Instant.now(), Instant.now(), 100 + ordinal,
                    status == TrialStatus.OK ? metrics : Map.of(), Map.of("host", "test-host", "jvm", "17"),
                    status == TrialStatus.OK ? null : "trial JVM crashed: " + HOSTILE));
        }
        store.transition(id, ExperimentStatus.RUNNING, ExperimentStatus.COMPLETED, Instant.now(), null);
        return id;
    }

    private HttpResponse<String> get(HttpClient client, String path) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(base() + path))
                .header("Accept", "text/html").build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * A value no analysis takes, as a release that did not bound agents' metrics stored it: the home page, the list
     * and the experiment's page answered 500 for everyone until the experiment was deleted.
     */
    @Test
    void aStoredValueTooLargeToCompareLeavesItsMetricUncomparedAndThePagesUp() throws Exception {
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(Map.of("completion", "monitor"), Workload.DEFAULTS),
                EngineVariant.of(Map.of("completion", "notification"), Workload.DEFAULTS), 2);
        long id = StoredExperiments.insert(store, new ExperimentSpec("too large", null, ExperimentKind.ENGINE,
                "sync-completion", plan), ExperimentStatus.RUNNING, "admin", Instant.now());
        for (int ordinal = 0; ordinal < 4; ordinal++) {
            Map<String, Double> metrics = Map.of("user_cpu_us_per_req", ordinal == 1 ? 1.7e308 : 20.0 + ordinal,
                    "sys_cpu_us_per_req", 40.0 + ordinal);
            store.saveRun(id, new TrialResult(ordinal % 2 == 0 ? "without" : "with", ordinal, TrialStatus.OK,
                    Instant.now(), Instant.now(), 100 + ordinal, metrics, Map.of("host", "test-host"), null));
        }
        for (String path : new String[] {"/", "/experiments", "/experiments/" + id}) {
            HttpResponse<String> page = get(http, path);
            assertThat(page.statusCode()).as(path).isEqualTo(200);
        }
        assertThat(get(http, "/experiments/" + id).body()).contains("values too large to compare");
        for (String path : new String[] {"/api/v1/experiments/" + id, "/api/v1/experiments/" + id + "/report.html",
            "/api/v1/experiments/" + id + "/report.md"}) {
            HttpResponse<String> read = http.send(HttpRequest.newBuilder(URI.create(base() + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(read.statusCode()).as(path + ": " + read.body()).isEqualTo(200);
        }
    }

    /** The same in a paired experiment, whose analysis takes each pair's log ratios and its variance components. */
    @Test
    void aStoredValueTooLargeToCompareLeavesAPairedExperimentsPagesUp() throws Exception {
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(Map.of("completion", "monitor"), Workload.DEFAULTS),
                EngineVariant.of(Map.of("completion", "notification"), Workload.DEFAULTS), 3)
                .withDesign(ExperimentDesign.ALTERNATING, 2);
        long id = StoredExperiments.insert(store, new ExperimentSpec("too large paired", null, ExperimentKind.ENGINE,
                null, plan), ExperimentStatus.RUNNING, "admin", Instant.now());
        Instant start = Instant.now();
        for (int pair = 0; pair < 3; pair++) {
            List<TrialResult> results = new ArrayList<>();
            for (int window = 0; window < 2; window++) {
                for (VariantName side : VariantName.values()) {
                    boolean with = side == VariantName.WITH;
                    boolean huge = pair == 1 && window == 0 && with;
                    Map<String, Double> metrics = Map.of("user_cpu_us_per_req", huge ? 1.7e308 : 20.0 + window,
                            "sys_cpu_us_per_req", 40.0 + pair + (with ? 0.5 : 0));
                    results.add(new TrialResult(side.label(), (pair * 10 + window) * 2 + side.ordinal(),
                            TrialStatus.OK, start, start.plusSeconds(3), 100 + side.ordinal(), metrics,
                            Map.of("host", "test-host"), null,
                            new PairPosition(pair, window, with ? "1" : "0", 1_000L * window, 0L, !with)));
                }
            }
            store.savePair(id, new PairResult(pair, TrialStatus.OK, new PairPlacement("0", "1", VariantName.WITHOUT),
                    results, start, start.plusSeconds(20), Duration.ofSeconds(14), Duration.ofSeconds(6), null));
        }
        store.transition(id, ExperimentStatus.RUNNING, ExperimentStatus.COMPLETED, Instant.now(), null);
        for (String path : new String[] {"/", "/experiments", "/experiments/" + id}) {
            HttpResponse<String> page = get(http, path);
            assertThat(page.statusCode()).as(path + ": " + page.body()).isEqualTo(200);
        }
        assertThat(get(http, "/experiments/" + id).body()).contains("values too large to compare")
                .contains("data-metric=\"sys_cpu_us_per_req\"");
        for (String path : new String[] {"/api/v1/experiments/" + id, "/api/v1/experiments/" + id + "/report.html",
            "/api/v1/experiments/" + id + "/report.md", "/api/v1/experiments/" + id + "/report.txt"}) {
            HttpResponse<String> read = http.send(HttpRequest.newBuilder(URI.create(base() + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(read.statusCode()).as(path + ": " + read.body()).isEqualTo(200);
        }
    }

    @Test
    void storedExperimentPageShowsItsResultsPlotsAndFailedRunsWithUserTextEscaped() throws Exception {
        long id = storeCompletedExperiment(HOSTILE, "</script><script>alert(2)</script>");

        HttpResponse<String> page = get(http, "/experiments/" + id);

        assertThat(page.statusCode()).isEqualTo(200);
        String html = page.body();
        assertThat(html).contains("completion", "monitor", "notification")
                .contains("data-metric=\"user_cpu_us_per_req\"", "id=\"results-table\"", "id=\"forest\"")
                .contains("trial JVM crashed")
                .contains("&lt;img src=x onerror=alert(1)&gt;")
                .contains("<title>\u2068&lt;img src=x onerror=alert(1)&gt;\u2069 · PerfLab</title>")
                .doesNotContain(HOSTILE)
                .doesNotContain("</script><script>alert(2)");
        // headline metrics first, in their order
        assertThat(html.indexOf("data-metric=\"user_cpu_us_per_req\""))
                .isLessThan(html.indexOf("data-metric=\"sys_cpu_us_per_req\""));
        assertThat(html.indexOf("data-metric=\"ctx_switches_per_req\""))
                .isLessThan(html.indexOf("data-metric=\"reqs_per_sec\""));
        assertThat(html).contains("verdict-improved");
    }

    @Test
    void uploadsShowWhatTheirToolSaidTheDebugBuildWarningNearTheTop() throws Exception {
        HttpResponse<String> google = post("/api/v1/uploads?format=googlebenchmark&benchmark=page-google",
                ADMIN_TOKEN, "application/json", Fixtures.read("googlebenchmark.json"));
        HttpResponse<String> rpcbench = post("/api/v1/uploads?format=rpcbench&benchmark=page-rpcbench",
                ADMIN_TOKEN, "text/plain", Fixtures.read("rpcbench-kudu.txt"));
        assertThat(google.statusCode()).as(google.body()).isEqualTo(201);
        assertThat(rpcbench.statusCode()).as(rpcbench.body()).isEqualTo(201);
        long googleId = read(google.body()).get("experimentId").asLong();
        long rpcbenchId = read(rpcbench.body()).get("experimentId").asLong();

        String page = get(http, "/experiments/" + googleId).body();
        assertThat(page.indexOf("was built as debug")).isPositive().isLessThan(page.indexOf("id=\"answer-title\""));
        assertThat(page).contains(">library_build_type</th><td>debug</td>", ">host_name</th>");
        String report = get(http, "/api/v1/experiments/" + googleId + "/report.html").body();
        assertThat(report.indexOf("was built as debug")).isPositive().isLessThan(report.indexOf("id=\"summary\""));
        assertThat(report).contains(">library_build_type</th><td>debug</td>");
        assertThat(get(http, "/api/v1/experiments/" + googleId + "/report.md").body()).contains("built as debug");
        // rpc-bench prints the settings its numbers ran with
        assertThat(get(http, "/experiments/" + rpcbenchId).body())
                .contains("Settings of the samples, as the benchmark printed them");
    }

    @Test
    void homeAndListShowExperimentsWithVerdictBadges() throws Exception {
        long id = storeCompletedExperiment("home listed " + HOSTILE, null);

        String home = get(http, "/").body();
        assertThat(home).contains("Recent experiments", "/experiments/" + id, "badge")
                .doesNotContain(HOSTILE);

        String list = get(http, "/experiments?status=completed&name=home+listed").body();
        assertThat(list).contains("/experiments/" + id, "COMPLETED").doesNotContain(HOSTILE);
        String none = get(http, "/experiments?status=queued&name=home+listed").body();
        assertThat(none).contains("No experiments match").doesNotContain("/experiments/" + id + "\"");
    }

    /** Past the last page the list said "No experiments match. Start one." beside "Page 6 of 1". */
    @Test
    void aPagePastTheLastSaysThereIsNoSuchPageWithALinkToTheFirst() throws Exception {
        stored("past the last page, one", List.of(), ExperimentStatus.CANCELLED);
        stored("past the last page, two", List.of(), ExperimentStatus.CANCELLED);

        HttpResponse<String> response = get(http, "/experiments?name=PAST+the+last+page&page=5");
        String list = response.body();

        assertThat(response.statusCode()).as("no such page, as crawlers and scripts should see it").isEqualTo(404);
        assertThat(list).containsPattern("There is no page\\s*<span>6</span>: the list has <span>1</span>.")
                .containsPattern("<a href=\"/experiments\\?[^\"]*name=PAST%20the%20last%20page[^\"]*\"\\s*"
                        + ">First page</a>")
                .doesNotContain("No experiments match", "page=5\">First");
    }

    /** A status or kind no menu offers was dropped, and every experiment listed under the menus on "any". */
    @Test
    void aStatusOrKindThatNamesNothingIsSaidWithTheValuesThereAre() throws Exception {
        long id = stored("status that names nothing", List.of(), ExperimentStatus.CANCELLED);

        String status = get(http, "/experiments?status=done&name=names+nothing").body();
        String kind = get(http, "/experiments?kind=benchmarks&name=names+nothing").body();

        assertThat(status).contains("role=\"alert\">There is no status &#39;done&#39;: choose one of QUEUED, "
                + "RUNNING, COMPLETED, FAILED, CANCELLED or INTERRUPTED, or any status.</p>")
                .doesNotContain("/experiments/" + id + "\"", "No experiments match");
        assertThat(kind).contains("role=\"alert\">There is no kind &#39;benchmarks&#39;: choose one of engine, "
                + "command or upload, or any kind.</p>").doesNotContain("/experiments/" + id + "\"");
        assertThat(get(http, "/experiments?status=Cancelled&name=names+nothing").body())
                .contains("/experiments/" + id + "\"").doesNotContain("There is no status");
    }

    /**
     * A filter, sort or page number that names nothing was said on the page, which answered 200 as if it had listed
     * what was asked: it answers 400, as the API does, with the list's form to filter again. A page number that is
     * no whole number from 0 answered the error page, without the form, or was taken as the first page.
     */
    @Test
    void aFilterSortOrPageNumberThatNamesNothingAnswers400WithTheMessageAndTheForm() throws Exception {
        stored("answers 400", List.of(), ExperimentStatus.CANCELLED);
        Map<String, String> said = new LinkedHashMap<>();
        said.put("status=bogus", "There is no status &#39;bogus&#39;: choose one of QUEUED,");
        said.put("kind=benchmarks", "There is no kind &#39;benchmarks&#39;: choose one of engine,");
        said.put("sort=largest", "There is no sort &#39;largest&#39;: choose newest or oldest.");
        said.put("page=-1", "There is no page &#39;-1&#39;: the address numbers pages with whole numbers from 0");
        said.put("page=two", "There is no page &#39;two&#39;: the address numbers pages with whole numbers from 0");
        said.put("page=99999999999", "There is no page &#39;99999999999&#39;: the address numbers pages");

        for (Map.Entry<String, String> query : said.entrySet()) {
            HttpResponse<String> list = get(http, "/experiments?name=answers+400&" + query.getKey());

            assertThat(list.statusCode()).as(query.getKey()).isEqualTo(400);
            assertThat(list.body()).as(query.getKey()).contains("role=\"alert\">" + query.getValue())
                    .contains("class=\"filters\" role=\"search\"", "<button type=\"submit\">Filter</button>")
                    .doesNotContain("No experiments match", "There is no page\n", "Failed to convert");
        }
        HttpResponse<String> listed = get(http, "/experiments?name=answers+400&sort=Oldest&page=0");
        assertThat(listed.statusCode()).isEqualTo(200);
        assertThat(listed.body()).contains("answers 400").doesNotContain("role=\"alert\"");
    }

    /**
     * The page said a filter, sort or page number that names nothing back as it was typed: a right-to-left override
     * (which the query's rules let through, as they refuse only control characters) reordered the message. They are
     * quoted as other messages quote what a user typed, with the override escaped.
     */
    @Test
    void aFilterSortOrPageNumberThatNamesNothingIsQuotedWithItsHiddenCharactersEscaped() throws Exception {
        Map<String, String> said = new LinkedHashMap<>();
        said.put("status=%E2%80%AEenod", "There is no status &#39;\\u202Eenod&#39;: choose one of QUEUED,");
        said.put("kind=%E2%80%AEenigne", "There is no kind &#39;\\u202Eenigne&#39;: choose one of engine,");
        said.put("sort=%E2%80%AEtsedlo", "There is no sort &#39;\\u202Etsedlo&#39;: choose newest or oldest.");
        said.put("page=%E2%80%AE1", "There is no page &#39;\\u202E1&#39;: the address numbers pages");

        for (Map.Entry<String, String> query : said.entrySet()) {
            HttpResponse<String> list = get(http, "/experiments?" + query.getKey());

            assertThat(list.statusCode()).as(query.getKey()).isEqualTo(400);
            assertThat(list.body()).as(query.getKey()).contains("role=\"alert\">" + query.getValue())
                    .doesNotContain("\u202E");
        }
    }

    /** The benchmark box matched the exact name only, beside a Name box that matches any part in any case. */
    @Test
    void theBenchmarkFilterFindsAnyPartOfTheNameInAnyCaseAsTheNameFilterDoes() throws Exception {
        HttpResponse<String> upload = post("/api/v1/uploads", ADMIN_TOKEN, "application/json",
                "{\"benchmark\":\"io.perflab.ListFilter.Ölfass\",\"metrics\":{\"t\":{\"values\":[1,2]}}}");
        assertThat(upload.statusCode()).as(upload.body()).isEqualTo(201);
        long id = read(upload.body()).get("experimentId").asLong();

        for (String typed : List.of("io.perflab.ListFilter.Ölfass", "listfilter.ÖLFASS", "ölfass")) {
            assertThat(get(http, "/experiments?benchmark=" + URLEncoder.encode(typed, StandardCharsets.UTF_8))
                    .body()).as(typed).contains("/experiments/" + id + "\"");
        }
        assertThat(get(http, "/experiments?benchmark=ListFilter_%C3%96lfass").body()).as("_ is no wildcard")
                .doesNotContain("/experiments/" + id + "\"").contains("No experiments match");
    }

    @Test
    void unknownExperimentPageIs404Page() throws Exception {
        HttpResponse<String> page = get(http, "/experiments/987654");

        assertThat(page.statusCode()).isEqualTo(404);
        assertThat(page.body()).contains("no experiment with id 987654");
    }

    /**
     * The form asks for sign-in when it is opened: sent signed out, all that was typed was lost, since only a GET is
     * kept across sign-in. Signing in leads back to the form as it was asked for.
     */
    @Test
    void newExperimentFormAsksForSignInWhenOpenedAndLeadsBackToItself() throws Exception {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();

        HttpResponse<String> signedOut = get(browser, "/experiments/new?preset=call-buffer-4k");

        assertThat(signedOut.statusCode()).isEqualTo(302);
        assertThat(signedOut.headers().firstValue("Location").orElseThrow()).endsWith("/login");
        HttpResponse<String> signedIn = signIn(browser);
        String back = signedIn.headers().firstValue("Location").orElseThrow();
        assertThat(back).contains("/experiments/new?preset=call-buffer-4k");
        HttpResponse<String> form = browser.send(HttpRequest.newBuilder(URI.create(back.startsWith("http") ? back
                : base() + back)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(form.statusCode()).isEqualTo(200);
        assertThat(form.body()).contains("sync-completion", "pooled-buffers", "recycled-call-objects",
                "callBufferInitialBytes").containsPattern("value=\"call-buffer-4k\"[^>]*checked");
    }

    /** The form states the default experiment from the one rule the service applies, not from a copy of it. */
    @Test
    void newExperimentFormStatesTheDefaultExperimentTheServiceApplies() throws Exception {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        signIn(browser);

        String form = get(browser, "/experiments/new").body();

        assertThat(form).contains("placeholder=\"at most " + PairedInput.DEFAULT_PAIRS + "\"",
                "data-default=\"" + PairedInput.DEFAULT_PAIRS + "\"",
                "placeholder=\"" + String.join(", ", PairedInput.DEFAULT_TARGETS) + " (the default)",
                "at most <span>" + PairedInput.DEFAULT_PAIRS + "</span> pairs",
                "a command experiment: <span>" + PairedInput.DEFAULT_COMMAND_PAIRS + "</span> pairs");
        int heading = form.indexOf("<h1>New experiment</h1>");
        String intro = form.substring(heading, form.indexOf("<form", heading)).replaceAll("\\s+", " ");
        assertThat(intro).containsSubsequence("By default", "alternating pairs",
                "at most <span>" + PairedInput.DEFAULT_PAIRS + "</span> pairs", "paired t-test", "fresh design",
                "<span>" + ExperimentValidator.DEFAULT_RUNS + "</span> per variant", "Welch");
    }

    /**
     * The form offered "Runs per variant 40" beside the default alternating design, which ignores runs: the plan's
     * fields are grouped under legends naming the designs they apply to, and runs start blank.
     */
    @Test
    void newExperimentFormGroupsThePlansFieldsByTheDesignTheyApplyTo() throws Exception {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        signIn(browser);

        String form = get(browser, "/experiments/new").body();

        String paired = form.substring(form.indexOf("<legend>Alternating and duet designs only</legend>"),
                form.indexOf("</fieldset>", form.indexOf("<legend>Alternating and duet designs only</legend>")));
        String fresh = form.substring(form.indexOf("<legend>Fresh design only</legend>"),
                form.indexOf("</fieldset>", form.indexOf("<legend>Fresh design only</legend>")));
        assertThat(paired).contains("name=\"pairs\"", "name=\"windowsPerPair\"", "name=\"target\"",
                "name=\"budget\"").doesNotContain("name=\"runsPerVariant\"");
        assertThat(fresh).contains("name=\"runsPerVariant\"", "name=\"order\"", "name=\"seed\"")
                .doesNotContain("name=\"pairs\"");
        String runs = fresh.substring(fresh.indexOf("<input"), fresh.indexOf(">", fresh.indexOf("<input")));
        assertThat(runs).contains("value=\"\"", "placeholder=\"" + ExperimentValidator.DEFAULT_RUNS + "\"");
        assertThat(form).containsPattern("<option value=\"alternating\" selected");
    }

    private HttpResponse<String> signIn(HttpClient browser) throws Exception {
        String csrf = csrf(get(browser, "/login").body());
        String password = Files.readString(dataDir.resolve("initial-admin-password")).strip();
        HttpResponse<String> signedIn = browser.send(post("/login", "username=admin&password="
                + URLEncoder.encode(password, StandardCharsets.UTF_8) + "&_csrf=" + csrf),
                HttpResponse.BodyHandlers.ofString());
        assertThat(signedIn.statusCode()).as("signed in").isEqualTo(302);
        return signedIn;
    }

    /** A visitor is offered a link that signs in and leads back, not buttons whose forms answer with sign-in. */
    @Test
    void aVisitorIsAskedToSignInToActOnAnExperimentAndComesBackToIt() throws Exception {
        long id = stored("cancelled, for a visitor", List.of("-Xbatch"), ExperimentStatus.CANCELLED);
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();

        String page = get(browser, "/experiments/" + id).body();

        assertThat(page).contains("Sign in to resume or re-run", "href=\"/experiments/" + id + "/sign-in\"")
                .doesNotContain("/experiments/" + id + "/resume", "/experiments/" + id + "/rerun");
        assertThat(get(browser, "/experiments/" + id + "/sign-in").statusCode()).isEqualTo(302);
        String back = signIn(browser).headers().firstValue("Location").orElseThrow();
        assertThat(back).contains("/experiments/" + id + "/sign-in");
        HttpResponse<String> landed = get(browser, "/experiments/" + id + "/sign-in");
        assertThat(landed.statusCode()).isEqualTo(302);
        assertThat(landed.headers().firstValue("Location").orElseThrow()).endsWith("/experiments/" + id);
        assertThat(get(browser, "/experiments/" + id).body()).contains("/experiments/" + id + "/resume",
                "/experiments/" + id + "/rerun").doesNotContain("Sign in to resume");
    }

    /**
     * A stored plan whose JVM flag this server no longer allows: Resume and Re-run are shown disabled with the
     * reason, and sent anyway they are refused on the experiment's page, where they answered a bare 400 page.
     */
    @Test
    void resumeAndRerunThatWouldBeRefusedAreDisabledWithTheReasonAndRefusedOnThePage() throws Exception {
        long id = stored("flags no longer allowed", List.of(ON_OUT_OF_MEMORY), ExperimentStatus.CANCELLED);
        long experiments = jdbc.sql("SELECT COUNT(*) FROM experiment").query(Long.class).single();
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        signIn(browser);

        String page = get(browser, "/experiments/" + id).body();

        assertThat(page).containsPattern("<button type=\"submit\"[^>]* disabled=\"disabled\">Resume</button>")
                .containsPattern("<button type=\"submit\"[^>]* disabled=\"disabled\">Re-run with the")
                .contains("Resume and re-run would be refused: withJvmArgs: ", "is not allowed");
        for (String action : List.of("rerun", "resume")) {
            HttpResponse<String> refused = browser.send(post("/experiments/" + id + "/" + action, "_csrf="
                    + csrf(page)), HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).as(action + ": " + refused.body()).isEqualTo(302);
            assertThat(refused.headers().firstValue("Location").orElseThrow()).as(action)
                    .endsWith("/experiments/" + id);
            assertThat(get(browser, "/experiments/" + id).body()).as(action)
                    .containsPattern("class=\"alert error\" role=\"alert\">withJvmArgs: [^<]*is not allowed");
        }
        assertThat(jdbc.sql("SELECT COUNT(*) FROM experiment").query(Long.class).single()).isEqualTo(experiments);
        assertThat(store.find(id).orElseThrow().status()).isEqualTo(ExperimentStatus.CANCELLED);
    }

    /** An engine experiment with these JVM flags on its 'with' side, for hosts no agent has, so it never runs. */
    /** Resume on the page of an experiment with every run stored completes it, and says so. */
    @Test
    void resumingAnExperimentWithEveryRunStoredCompletesItAndSaysSo() throws Exception {
        long id = stored("every run stored, interrupted", List.of(), ExperimentStatus.INTERRUPTED);
        for (int ordinal = 0; ordinal < 4; ordinal++) {
            store.saveRun(id, new io.perflab.runner.trial.TrialResult(ordinal % 2 == 0 ? "without" : "with", ordinal,
                    io.perflab.runner.trial.TrialStatus.OK, Instant.now(), Instant.now(), 7,
                    Map.of("user_cpu_us_per_req", 20.0 + ordinal), Map.of(), null));
        }
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        signIn(browser);

        HttpResponse<String> resumed = browser.send(post("/experiments/" + id + "/resume", "_csrf="
                + csrf(get(browser, "/experiments/" + id).body())), HttpResponse.BodyHandlers.ofString());

        assertThat(resumed.statusCode()).isEqualTo(302);
        assertThat(get(browser, "/experiments/" + id).body())
                .contains("No run was missing: every one is stored, so it is completed.");
        assertThat(store.find(id).orElseThrow().status()).isEqualTo(ExperimentStatus.COMPLETED);
    }

    private long stored(String name, List<String> withFlags, ExperimentStatus status) {
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(Map.of(), Workload.DEFAULTS),
                EngineVariant.of(Map.of(), Workload.DEFAULTS).withJvmArgs(withFlags), 2);
        return StoredExperiments.insert(store, new ExperimentSpec(name, null, ExperimentKind.ENGINE, null, plan,
                PairedStopping.NONE, HostLabels.parse("pool=no-such-host")), status, "admin", Instant.now());
    }

    @Test
    void newExperimentFormShowsErrorsNextToFields() throws Exception {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        signIn(browser);

        String formCsrf = csrf(get(browser, "/experiments/new").body());
        HttpResponse<String> invalid = browser.send(post("/experiments/new", "name=too+few&preset=sync-completion"
                + "&design=fresh&runsPerVariant=1&order=interleaved&seed=1&_csrf=" + formCsrf),
                HttpResponse.BodyHandlers.ofString());
        assertThat(invalid.statusCode()).isEqualTo(200);
        assertThat(invalid.body()).contains("field-error", "must be greater than or equal to 2, got 1");

        HttpResponse<String> badOption = browser.send(post("/experiments/new", "name=x&preset="
                + "&without%5Bcompletion%5D=monitor&with%5Bcompletion%5D=monitor&design=fresh&runsPerVariant=2"
                + "&order=interleaved&seed=1&_csrf=" + formCsrf),
                HttpResponse.BodyHandlers.ofString());
        assertThat(badOption.body()).contains("identical");

        // values of the wrong type: said on their field in the user's terms, never a 500 or a Java type
        HttpResponse<String> wrongTypes = browser.send(post("/experiments/new", "name=types&preset=sync-completion"
                + "&design=alternating&pairs=99999999999&workload%5BrunSeconds%5D=fast"
                + "&workload%5BclientThreads%5D=many&windowsPerPair=x&_csrf=" + formCsrf),
                HttpResponse.BodyHandlers.ofString());
        assertThat(wrongTypes.statusCode()).isEqualTo(200);
        assertThat(wrongTypes.body()).contains("must be a whole number up to 2147483647, got &#39;99999999999&#39;",
                        "must be a whole number up to 2147483647, got &#39;x&#39;",
                        "must be a whole number, got &#39;many&#39;", "must be a number of seconds")
                .doesNotContain("java.lang", "Failed to convert");

        // a constraint on one entry of a map or list (an option value too long, a hidden character in a target)
        // answered 500: its path named the entry's value as a property of its own
        HttpResponse<String> entries = browser.send(post("/experiments/new", "name=entries&preset=sync-completion"
                + "&design=alternating&with%5Bflush%5D=" + "x".repeat(300) + "&target=cpu_us_per_req%3A1%25%E2%80%AE"
                + "&_csrf=" + formCsrf), HttpResponse.BodyHandlers.ofString());
        assertThat(entries.statusCode()).isEqualTo(200);
        assertThat(entries.body()).contains("field-error", "size must be between 0 and 40",
                "must be printable text without control characters").doesNotContain("java.lang");

        // a measured window beyond its bound is said with that bound and the value as written (was 86400 and 5E+3)
        HttpResponse<String> longWindow = browser.send(post("/experiments/new", "name=long&preset=sync-completion"
                + "&design=alternating&workload%5BrunSeconds%5D=5000&_csrf=" + formCsrf),
                HttpResponse.BodyHandlers.ofString());
        assertThat(longWindow.body()).contains("must be less than or equal to 3600, got 5000").doesNotContain("5E+3");

        // an index or key after a field that holds one value: a 400 naming the field, was a 500
        for (String field : new String[] {"name%5B0%5D=x", "without%5Bx%5D%5By%5D=x", "runsPerVariant%5B0%5D=1"}) {
            HttpResponse<String> indexed = browser.send(post("/experiments/new", "preset=sync-completion&" + field
                    + "&_csrf=" + formCsrf), HttpResponse.BodyHandlers.ofString());
            assertThat(indexed.statusCode()).as(field).isEqualTo(400);
            assertThat(indexed.body()).contains("is not one this request takes").doesNotContain("java.", "Invalid "
                    + "property");
        }
    }

    /**
     * The form's page quoted a preset or a design that is none as it was sent, an escape or a right-to-left override
     * included: they are quoted as the form's other fields are. The page's hints kept such a preset in an attribute.
     */
    @Test
    void aPresetOrDesignThatIsNoneIsQuotedWithItsHiddenCharactersEscaped() throws Exception {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        signIn(browser);
        String formCsrf = csrf(get(browser, "/experiments/new").body());
        String[][] cases = {
            {"name=p&preset=%1B%5B2J%E2%80%AEnope&design=alternating",
                "unknown preset &#39;\\u001B[2J\\u202Enope&#39;"},
            {"name=d&preset=sync-completion&design=%E2%80%AEteud%1B", "unknown design &#39;\\u202Eteud\\u001B&#39;"}};
        for (String[] c : cases) {
            HttpResponse<String> shown = browser.send(post("/experiments/new", c[0] + "&_csrf=" + formCsrf),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(shown.statusCode()).as(c[0]).isEqualTo(200);
            // the message in its field's error
            int at = shown.body().indexOf("class=\"field-error\">unknown ");
            assertThat(at).as(shown.body()).isPositive();
            assertThat(shown.body().substring(at, shown.body().indexOf('<', at))).as(c[0]).contains(c[1])
                    .doesNotContain("\u001B", "\u202E");
            // the hints of the smallest detectable change were found for a preset that is none, which their script's
            // data-preset held as it was sent: they are found for none, and the attribute is left out, as the form's
            // script takes a preset that no choice on the form has
            int hints = shown.body().lastIndexOf('<', shown.body().indexOf("id=\"mde-hints\""));
            String script = shown.body().substring(hints, shown.body().indexOf('>', hints));
            if (c[0].contains("nope")) {
                assertThat(script).doesNotContain("data-preset");
            } else {
                assertThat(script).contains("data-preset=\"sync-completion\"");
            }
            assertThat(shown.body()).as(c[0]).doesNotContain("\u001B", "\u202E");
        }
    }

    /**
     * A field given twice was joined ({@code name=x&name=y} named the experiment "x,y") or its first value taken; an
     * order that is none was dropped with a paired design and named the CLI's flag with the fresh one; a form sent
     * without its CSRF token answered a bare "Forbidden".
     */
    @Test
    void aRepeatedFieldOrAnOrderThatIsNoneIsSaidByItsFieldAndAnExpiredFormSaysReloadIt() throws Exception {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        signIn(browser);
        String formCsrf = csrf(get(browser, "/experiments/new").body());
        long before = jdbc.sql("SELECT COUNT(*) FROM experiment").query(Long.class).single();
        String fresh = "&preset=sync-completion&design=fresh&runsPerVariant=5";
        String[][] cases = {
            {"name=x&name=y" + fresh, "given twice (&#39;x&#39;, &#39;y&#39;); give it once"},
            {"name=r" + fresh + "&runsPerVariant=7", "given twice (&#39;5&#39;, &#39;7&#39;)"},
            {"name=p&preset=nope" + fresh, "given twice (&#39;nope&#39;, &#39;sync-completion&#39;)"},
            {"name=o&preset=sync-completion&design=alternating&order=sideways",
                "must be interleaved, randomized or blocked, got &#39;sideways&#39;"},
            {"name=f" + fresh + "&order=sideways", "must be interleaved, randomized or blocked"}};
        for (String[] c : cases) {
            HttpResponse<String> shown = browser.send(post("/experiments/new", c[0] + "&_csrf=" + formCsrf),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(shown.statusCode()).as(c[0]).isEqualTo(200);
            assertThat(shown.body()).as(c[0]).contains("field-error", c[1]).doesNotContain("--order",
                    "unknown preset");
        }
        assertThat(jdbc.sql("SELECT COUNT(*) FROM experiment").query(Long.class).single()).isEqualTo(before);

        for (String token : new String[] {"", "&_csrf=stale"}) {
            HttpResponse<String> expired = browser.send(post("/experiments/new", "name=e&preset=sync-completion"
                    + token), HttpResponse.BodyHandlers.ofString());
            assertThat(expired.statusCode()).isEqualTo(403);
            assertThat(expired.body()).contains("This form has expired or was not sent from PerfLab",
                    "page; reload it and submit again.");
        }
    }

    @Test
    void formPostWithoutSignInIsRedirectedToLogin() throws Exception {
        HttpResponse<String> response = http.send(post("/experiments/new", "name=x&preset=sync-completion"),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isIn(302, 403);
    }

    private HttpRequest post(String path, String form) {
        return HttpRequest.newBuilder(URI.create(base() + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build();
    }

    static String csrf(String html) {
        String token = html.replaceAll("(?s).*name=\"_csrf\" value=\"([^\"]+)\".*", "$1");
        return URLEncoder.encode(token, StandardCharsets.UTF_8);
    }
}
