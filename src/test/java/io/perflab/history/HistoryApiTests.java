package io.perflab.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.perflab.cli.PerfLabCommand;
import io.perflab.upload.UploadServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Acceptance 3: ten single-variant uploads on a branch with a step at the seventh. {@code perflab upload
 * --fail-on-regression} exits 1 for that upload only, and the history shows the change point there.
 */
class HistoryApiTests extends UploadServer {

    /** The same within-upload spread every time, so only the level and a small per-upload offset move. */
    static final double[] NOISE = {-2, 1.5, 0.5, -1, 2, -1};

    record Run(int exit, String out, String err) {
    }

    private Run upload(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = PerfLabCommand.commandLine(new PrintWriter(out), new PrintWriter(err)).execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    private Path resultFile(double level, int upload) throws Exception {
        StringBuilder values = new StringBuilder();
        for (int j = 0; j < NOISE.length; j++) {
            double offset = 0.3 * (upload % 3 - 1);
            values.append(j == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2f", level + NOISE[j] + offset));
        }
        Path file = Files.createTempFile("result", ".json");
        Files.writeString(file, """
                {"metrics": {"latency_us": {"unit": "us", "direction": "lower", "values": [%s]},
                             "throughput": {"unit": "op/s", "direction": "higher", "values": [50, 51, 49, 50, 52, 48]}}}
                """.formatted(values));
        return file;
    }

    @Test
    void stepAtTheSeventhUploadFailsOnlyThatJobAndIsTheChangePoint() throws Exception {
        String token = newToken("history-tests");
        Instant firstCommit = Instant.parse("2025-03-01T08:00:00Z");
        List<Integer> exits = new ArrayList<>();
        List<String> outputs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            double level = i < 6 ? 100 : 120;
            Run run = upload("upload", "--server", base(), "--token", token, "--benchmark", "gate",
                    "--git-branch", "main", "--git-commit", "commit-" + i,
                    "--commit-time", firstCommit.plusSeconds(3600L * i).toString(),
                    "--fail-on-regression", "--threshold", "2%", resultFile(level, i).toString());
            exits.add(run.exit());
            outputs.add(run.out() + run.err());
        }

        assertThat(exits).as(String.join("\n----\n", outputs)).containsExactly(0, 0, 0, 0, 0, 0, 1, 0, 0, 0);
        assertThat(outputs.get(0)).contains("No earlier upload of 'gate' on the base branch main/master");
        assertThat(outputs.get(6)).contains("Compared with upload").contains("(commit commit-5)")
                .contains("latency_us").contains("regressed").contains("regressed by more than 2.00 %: latency_us");
        assertThat(outputs.get(7)).contains("(commit commit-6)").doesNotContain("regressed");

        JsonNode history = read(get("/api/v1/benchmarks/gate/history?metric=latency_us&branch=main").body());
        assertThat(history.get("points")).hasSize(10);
        assertThat(history.get("metrics").toString()).contains("latency_us", "throughput");
        assertThat(history.get("direction").asString()).isEqualTo("lower");
        JsonNode seventh = history.get("points").get(6);
        assertThat(seventh.get("commit").asString()).isEqualTo("commit-6");
        assertThat(seventh.get("n").asInt()).isEqualTo(6);
        // mean of 120 + NOISE + 0.3·(6 mod 3 − 1) = 120 + 0 − 0.3
        assertThat(seventh.get("mean").asDouble()).isCloseTo(119.7, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(seventh.get("ciLow").asDouble()).isLessThan(119.7);
        assertThat(seventh.get("url").asString()).endsWith("/experiments/" + seventh.get("experimentId").asLong());
        JsonNode changePoints = history.get("changePoints");
        assertThat(changePoints).as(history.toString()).hasSize(1);
        assertThat(changePoints.get(0).get("index").asInt()).isEqualTo(6);
        assertThat(changePoints.get(0).get("commit").asString()).isEqualTo("commit-6");
        assertThat(changePoints.get(0).get("percent").asDouble()).isBetween(19.0, 21.0);

        JsonNode flat = read(get("/api/v1/benchmarks/gate/history?metric=throughput").body());
        assertThat(flat.get("changePoints")).isEmpty();
        assertThat(flat.get("total").asLong()).isEqualTo(10);
        assertThat(flat.get("size").asInt()).isEqualTo(200);

        // a page at a time, the latest first: the ten uploads in pages of 4 are 6–9, 2–5 and 0–1
        String series = "/api/v1/benchmarks/gate/history?metric=latency_us&branch=main";
        JsonNode latest = read(get(series + "&size=4").body());
        assertThat(latest.get("from").asInt()).isEqualTo(6);
        assertThat(latest.get("total").asLong()).isEqualTo(10);
        assertThat(latest.get("points")).extracting(p -> p.get("commit").asString())
                .containsExactly("commit-6", "commit-7", "commit-8", "commit-9");
        assertThat(latest.get("changePoints")).isEmpty();
        JsonNode earliest = read(get(series + "&size=4&page=2").body());
        assertThat(earliest.get("from").asInt()).isZero();
        assertThat(earliest.get("points")).extracting(p -> p.get("commit").asString())
                .containsExactly("commit-0", "commit-1");
        // the change points are the page's, indexed into its points
        JsonNode eight = read(get(series + "&size=8").body());
        assertThat(eight.get("from").asInt()).isEqualTo(2);
        assertThat(eight.get("changePoints")).as(eight.toString()).singleElement().satisfies(c -> {
            assertThat(c.get("index").asInt()).isEqualTo(4);
            assertThat(c.get("commit").asString()).isEqualTo("commit-6");
        });
        HttpResponse<String> past = get(series + "&size=4&page=3");
        assertThat(past.statusCode()).isEqualTo(404);
        assertThat(past.body()).contains("There is no page 3 of the history of 'latency_us' in 'gate': its 10 "
                + "uploads fill 3 pages of 4");
        HttpResponse<String> tooLarge = get(series + "&size=201");
        assertThat(tooLarge.statusCode()).isEqualTo(400);
        assertThat(tooLarge.body()).contains("size: must be between 1 and 200, got 201");

        JsonNode benchmarks = read(get("/api/v1/benchmarks?name=gate").body()).get("items");
        JsonNode gate = null;
        for (JsonNode b : benchmarks) {
            if (b.get("name").asString().equals("gate")) {
                gate = b;
            }
        }
        assertThat(gate).isNotNull();
        assertThat(gate.get("uploads").asLong()).isEqualTo(10);
        assertThat(gate.get("branches").toString()).isEqualTo("[\"main\"]");
    }

    @Test
    void regressionWithinTheThresholdPasses() throws Exception {
        String token = newToken("threshold-tests");
        String[] common = {"upload", "--server", base(), "--token", token, "--benchmark", "gate-threshold",
                "--git-branch", "main", "--fail-on-regression"};
        assertThat(upload(concat(common, "--git-commit", "a", resultFile(100, 1).toString())).exit()).isZero();
        // +20 % on latency: a regression, but under --threshold 25 %
        Run run = upload(concat(common, "--git-commit", "b", "--threshold", "25%", resultFile(120, 1).toString()));
        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("regressed");
    }

    /**
     * Go's B/op and allocs/op measure the same value in every run: a move from 64 to 96 was "inconclusive" (the
     * t-test stops on constant data) and the gate passed it. It is an exact regression, and the gate fails it.
     */
    @Test
    void anAllocationRegressionThatEveryRunMeasuresAlikeFailsTheGate() throws Exception {
        String token = newToken("constant-tests");
        String[] common = {"upload", "--server", base(), "--token", token, "--benchmark", "gate-allocs",
                "--git-branch", "main", "--fail-on-regression", "--threshold", "2%"};
        Run first = upload(concat(common, "--git-commit", "a", goFile(64, 2, 0).toString()));
        assertThat(first.exit()).as(first.out() + first.err()).isZero();

        Run same = upload(concat(common, "--git-commit", "b", goFile(64, 2, 3).toString()));
        assertThat(same.exit()).as(same.out() + same.err()).isZero();
        assertThat(same.out()).containsPattern("Join:B/op .* unchanged").containsPattern("Join:allocs/op .* unchanged");

        Run more = upload(concat(common, "--git-commit", "c", goFile(96, 3, 1).toString()));
        assertThat(more.exit()).as(more.out() + more.err()).isEqualTo(1);
        assertThat(more.out()).containsPattern("Join:B/op .*64\\.00 +96\\.00 +\\+50\\.00 .*regressed")
                .containsPattern("Join:allocs/op .* regressed");
        assertThat(more.err()).contains("regressed by more than 2.00 %: ", "Join:B/op", "Join:allocs/op")
                .doesNotContain("Join:ns/op");

        // what the gate judged stays with the upload: its page and API show the comparison with its base again
        long id = experimentId(more);
        long baseId = experimentId(same);
        JsonNode base = read(get("/api/v1/experiments/" + id + "/base-comparison").body());
        assertThat(base.get("baseExperimentId").asLong()).isEqualTo(baseId);
        assertThat(base.get("baseCommit").asString()).isEqualTo("b");
        assertThat(base.get("comparison").toString()).contains("\"metric\":\"Join:B/op\"");
        for (JsonNode c : base.get("comparison")) {
            assertThat(c.get("verdict").asString()).as(c.toString())
                    .isEqualTo(c.get("metric").asString().equals("Join:ns/op") ? "unchanged" : "regressed");
        }
        String page = get("/experiments/" + id).body();
        assertThat(page).contains("Compared with its base", "upload " + baseId, "(commit b)", "Join:B/op",
                "every run measured 64 without and 96 with: an exact change of +50.00%", "2 regressed")
                .doesNotContain("No metric was measured by both variants", "Workload, plan, environment");
        // an upload was not run by PerfLab: no plan of runs, its values are samples
        assertThat(page).contains("<caption>Samples</caption>", "Uploaded, not run by PerfLab")
                .doesNotContain("<caption>Plan</caption>", "trial timeout");
        HttpResponse<String> none = get("/api/v1/experiments/" + experimentId(first) + "/base-comparison");
        assertThat(none.statusCode()).isEqualTo(404);
        assertThat(none.body()).contains("has no base comparison: it is not an upload of one side that found an "
                + "earlier upload of its benchmark");
        assertThat(get("/experiments/" + experimentId(first)).body()).doesNotContain("Compared with its base")
                .contains("verdict-not-compared");
        // one side alone is not compared within itself: "not compared", not "inconclusive" (more runs would not help)
        for (JsonNode c : read(get("/api/v1/experiments/" + experimentId(first)).body()).get("results")) {
            assertThat(c.get("verdict").asString()).isEqualTo("not compared");
            assertThat(c.get("error").asString()).isNotBlank();
        }

        // the history opens on the time per operation, not on B/op, which sorts first
        assertThat(read(get("/api/v1/benchmarks/gate-allocs/history").body()).get("metric").asString())
                .isEqualTo("Join:ns/op");
    }

    /** The experiment an upload's first line names: "Uploaded experiment 7: …". */
    private static long experimentId(Run upload) {
        return Long.parseLong(upload.out().lines().findFirst().orElseThrow()
                .replaceAll("^Uploaded experiment (\\d+):.*$", "$1"));
    }

    /** Go benchmark output: ten runs of Join, each at {@code bytes} B/op and {@code allocs} allocs/op. */
    private static Path goFile(int bytes, int allocs, int shift) throws Exception {
        StringBuilder out = new StringBuilder("goos: linux\ngoarch: amd64\npkg: example.org/strs\n");
        for (int i = 0; i < 10; i++) {
            out.append(String.format(Locale.ROOT, "BenchmarkJoin-2   \t 5000000\t %8.1f ns/op\t %6d B/op\t %4d "
                    + "allocs/op%n", 240 + NOISE[(i + shift) % NOISE.length], bytes, allocs));
        }
        out.append("PASS\n");
        Path file = Files.createTempFile("go-bench", ".txt");
        Files.writeString(file, out);
        return file;
    }

    @Test
    void unknownBenchmarkIs404AndUnknownMetricIs400() throws Exception {
        HttpResponse<String> missing = get("/api/v1/benchmarks/no-such-benchmark/history");
        assertThat(missing.statusCode()).isEqualTo(404);
        String token = newToken("history-metric-tests");
        upload("upload", "--server", base(), "--token", token, "--benchmark", "one-metric",
                resultFile(100, 0).toString());
        HttpResponse<String> wrongMetric = get("/api/v1/benchmarks/one-metric/history?metric=nope");
        assertThat(wrongMetric.statusCode()).isEqualTo(400);
        assertThat(read(wrongMetric.body()).get("detail").asString()).contains("latency_us, throughput");
    }

    /** Uploads of {@code parse} to {@code benchmark}, three values each around {@code level}, commit c{@code i}. */
    private List<Long> uploadParse(String benchmark, String unit, String direction, double level, int... commits)
            throws Exception {
        List<Long> ids = new ArrayList<>();
        for (int i : commits) {
            String body = """
                    {"benchmark": "%s", "metrics": {"parse": {"unit": "%s", "direction": "%s",
                                                              "values": [%s, %s, %s]}},
                     "git": {"branch": "main", "commit": "c%d", "commitTime": "2025-04-%02dT08:00:00Z"}}"""
                    .formatted(benchmark, unit, direction, level, level * 1.01, level * 0.99, i, i + 1);
            HttpResponse<String> response = post("/api/v1/uploads", ADMIN_TOKEN, "application/json", body);
            assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
            ids.add(read(response.body()).get("experimentId").asLong());
        }
        return ids;
    }

    @Test
    void uploadsOfAMetricInAnotherTimeUnitAreConvertedToTheLatestUnitSayingSo() throws Exception {
        // JMH run with -tu us, then with -tu ms: 12 us and 0.012 ms are one level, drawn in ms
        List<Long> ids = uploadParse("units-series", "us/op", "lower", 12, 0, 1, 2, 3, 4);
        uploadParse("units-series", "ms/op", "lower", 0.012, 5, 6, 7);

        JsonNode history = read(get("/api/v1/benchmarks/units-series/history?metric=parse").body());
        assertThat(history.get("unit").asString()).isEqualTo("ms/op");
        assertThat(history.get("points")).hasSize(8);
        // (12 + 12.12 + 11.88) / 3 µs
        history.get("points").forEach(p -> assertThat(p.get("mean").asDouble()).isCloseTo(0.012, offset(1e-12)));
        for (int i = 0; i < 8; i++) {
            JsonNode convertedFrom = history.get("points").get(i).get("convertedFrom");
            if (i < 5) {
                assertThat(convertedFrom.asString()).as("point " + i).isEqualTo("us/op");
            } else {
                assertThat(convertedFrom.isNull()).as("point " + i).isTrue();
            }
        }
        assertThat(history.get("points").get(0).get("ciLow").asDouble()).isBetween(0.011, 0.012);
        assertThat(history.get("changePoints")).isEmpty();
        assertThat(history.get("notes")).hasSize(1);
        assertThat(history.get("notes").get(0).asString()).isEqualTo("5 uploads measured 'parse' in 'us/op' "
                + "(experiments " + ids.get(0) + ", " + ids.get(1) + ", " + ids.get(2) + ", " + ids.get(3) + ", "
                + ids.get(4) + "): their values are converted to 'ms/op', the unit of the latest upload.");
        HttpResponse<String> page = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base()
                + "/benchmarks/units-series?metric=parse")).header("Accept", "text/html").GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(page.body()).contains("5 uploads measured &#39;parse&#39; in &#39;us/op&#39;")
                .contains("converted from us/op");

        // a branch's series is read in the unit of that branch's latest upload, not of a later one elsewhere
        HttpResponse<String> release = post("/api/v1/uploads", ADMIN_TOKEN, "application/json", """
                {"benchmark": "units-series", "metrics": {"parse": {"unit": "us/op", "values": [13, 13, 13]}},
                 "git": {"branch": "release-1", "commit": "r1", "commitTime": "2025-04-20T08:00:00Z"}}""");
        assertThat(release.statusCode()).as(release.body()).isEqualTo(201);
        JsonNode main = read(get("/api/v1/benchmarks/units-series/history?metric=parse&branch=main").body());
        assertThat(main.get("unit").asString()).isEqualTo("ms/op");
        assertThat(main.get("points")).hasSize(8);
        JsonNode branch = read(get("/api/v1/benchmarks/units-series/history?metric=parse&branch=release-1").body());
        assertThat(branch.get("unit").asString()).isEqualTo("us/op");
        assertThat(branch.get("points")).hasSize(1);
        assertThat(branch.get("notes")).isEmpty();
        JsonNode all = read(get("/api/v1/benchmarks/units-series/history?metric=parse").body());
        assertThat(all.get("unit").asString()).isEqualTo("us/op");
        assertThat(all.get("points")).hasSize(9);
        assertThat(all.get("points").get(5).get("mean").asDouble()).isCloseTo(12, offset(1e-9));
        assertThat(all.get("points").get(5).get("convertedFrom").asString()).isEqualTo("ms/op");
    }

    @Test
    void uploadsOfAMetricInAUnitThatDoesNotConvertAreLeftOutOfItsSeriesSayingSo() throws Exception {
        // JMH's average time, then its throughput in two time units: the time per operation is not a rate
        List<Long> times = uploadParse("units-modes", "us/op", "lower", 12, 0, 1);
        List<Long> perSecond = uploadParse("units-modes", "ops/s", "higher", 80_000, 2, 3);
        uploadParse("units-modes", "ops/ms", "higher", 85, 4, 5);

        JsonNode history = read(get("/api/v1/benchmarks/units-modes/history?metric=parse").body());
        assertThat(history.get("unit").asString()).isEqualTo("ops/ms");
        assertThat(history.get("direction").asString()).isEqualTo("higher");
        assertThat(history.get("points")).hasSize(4);
        double[] means = {80, 80, 85, 85};
        for (int i = 0; i < means.length; i++) {
            assertThat(history.get("points").get(i).get("mean").asDouble()).isCloseTo(means[i], offset(1e-9));
        }
        assertThat(history.get("points")).extracting(p -> p.get("convertedFrom").isNull())
                .containsExactly(false, false, true, true);
        assertThat(history.get("notes")).extracting(JsonNode::asString).containsExactly(
                "2 uploads measured 'parse' in 'ops/s' (experiments " + perSecond.get(0) + ", " + perSecond.get(1)
                        + "): their values are converted to 'ops/ms', the unit of the latest upload.",
                "2 uploads measured 'parse' in 'us/op', lower is better (experiments " + times.get(0) + ", "
                        + times.get(1) + "), not as the latest upload does: they are left out of this series.");
    }

    @Test
    void aLongNameOrMetricAskedForIsCutInTheMessageAndStaysEscaped() throws Exception {
        // a 2000-character metric and all of a benchmark's metrics were repeated whole; escapes stay as they were
        HttpResponse<String> missing = get("/api/v1/benchmarks/history?benchmark=gate%E2%80%AEexe.txt");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(read(missing.body()).get("detail").asString())
                .startsWith("There are no uploads of the benchmark 'gate\\u202Eexe.txt'");
        HttpResponse<String> longName = get("/api/v1/benchmarks/history?benchmark=" + "y".repeat(3000));
        assertThat(longName.statusCode()).isEqualTo(404);
        assertThat(read(longName.body()).get("detail").asString()).hasSizeLessThan(400);
        String token = newToken("history-escape-tests");
        upload("upload", "--server", base(), "--token", token, "--benchmark", "escapes", resultFile(100, 0).toString());
        HttpResponse<String> wrong = get("/api/v1/benchmarks/escapes/history?metric=lat%1B%5B2Jency"
                + "x".repeat(2000));
        assertThat(wrong.statusCode()).isEqualTo(400);
        String detail = read(wrong.body()).get("detail").asString();
        // a control character in the query is refused before the metric is looked up
        assertThat(detail).contains("metric: must be text without control characters; it has a control character "
                + "(U+001B) at position 4").doesNotContain("\u001b");
        assertThat(detail.length()).isLessThan(400);
    }

    @Test
    void benchmarkNamesWithASlashHaveAHistoryByParameter() throws Exception {
        String token = newToken("slash-tests");
        upload("upload", "--server", base(), "--token", token, "--benchmark", "example.com/team/parser",
                "--git-branch", "main", resultFile(100, 0).toString());
        HttpResponse<String> response = get("/api/v1/benchmarks/history?benchmark=example.com/team/parser"
                + "&metric=throughput");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(read(response.body()).get("points")).hasSize(1);
        assertThat(read(response.body()).get("points").get(0).get("mean").asDouble()).isEqualTo(50.0);
    }

    /** The text typed is case-folded as the names are, whatever the database's LOWER would make of 'İ'. */
    @Test
    void aBenchmarkTypedAsItIsShownIsFoundWhateverItsLetters() throws Exception {
        HttpResponse<String> response = post("/api/v1/uploads", ADMIN_TOKEN, "application/json", """
                {"benchmark": "Ölfass-İzmir", "metrics": {"t": {"values": [1, 2, 3]}}}""");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);

        for (String typed : List.of("Ölfass-İzmir", "ÖLFASS-İZMIR", "fass-İz")) {
            JsonNode found = read(get("/api/v1/benchmarks?name="
                    + java.net.URLEncoder.encode(typed, java.nio.charset.StandardCharsets.UTF_8)).body());
            assertThat(found.get("total").asLong()).as(typed).isEqualTo(1);
            assertThat(found.get("items").get(0).get("name").asString()).isEqualTo("Ölfass-İzmir");
        }
    }

    @Test
    void benchmarksAreListedAPageAtATimeAndFilteredByNameAsTyped() throws Exception {
        for (String name : List.of("paging-b", "paging_x", "pagingax")) {
            HttpResponse<String> response = post("/api/v1/uploads", ADMIN_TOKEN, "application/json", """
                    {"benchmark": "%s", "metrics": {"t": {"values": [1, 2, 3]}}}""".formatted(name));
            assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        }

        JsonNode first = read(get("/api/v1/benchmarks?name=PAGING&size=2").body());
        JsonNode second = read(get("/api/v1/benchmarks?name=PAGING&size=2&page=1").body());
        assertThat(first.get("total").asLong()).isEqualTo(3);
        assertThat(first.get("size").asInt()).isEqualTo(2);
        assertThat(first.get("items")).hasSize(2);
        assertThat(second.get("page").asInt()).isEqualTo(1);
        assertThat(second.get("items")).hasSize(1);
        List<String> names = new ArrayList<>();
        for (JsonNode page : List.of(first, second)) {
            page.get("items").forEach(b -> names.add(b.get("name").asString()));
        }
        assertThat(names).containsExactlyInAnyOrder("paging-b", "paging_x", "pagingax");

        // "_" and "%" are what they are, not LIKE's wildcards
        JsonNode underscore = read(get("/api/v1/benchmarks?name=paging_").body());
        assertThat(underscore.get("total").asLong()).isEqualTo(1);
        assertThat(underscore.get("items").get(0).get("name").asString()).isEqualTo("paging_x");
        assertThat(read(get("/api/v1/benchmarks?name=paging%25").body()).get("items")).isEmpty();

        for (String[] bad : new String[][] {
                {"size=0", "size: must be between 1 and 200, got 0"},
                {"size=201", "size: must be between 1 and 200, got 201"},
                {"page=-1", "page: must be ≥ 0, got -1"},
                {"size=all", "size: must be a whole number"}}) {
            HttpResponse<String> response = get("/api/v1/benchmarks?" + bad[0]);
            assertThat(response.statusCode()).as(bad[0]).isEqualTo(400);
            assertThat(read(response.body()).get("detail").asString()).as(bad[0]).startsWith(bad[1]);
        }
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
