package io.perflab.load;

import io.perflab.PerfLabApplication;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.json.JsonMapper;

/**
 * Load benchmark of the service (issue 9, section 4): starts PerfLab in this JVM on a free loopback port with a
 * fresh H2 file database in a temporary directory or a fresh database of an embedded PostgreSQL ({@code --databases},
 * both side by side in one run), then runs four bounded scenarios over real HTTP:
 * <ol>
 *   <li><b>uploads</b> — concurrent CI uploaders posting native JSON uploads with a stored API token;</li>
 *   <li><b>experiment page</b> — 1,000 seeded finished experiments of 80 runs × 12 metrics, the HTML page of
 *       random experiments, cold (first view, nothing cached) and warm, one client and several;</li>
 *   <li><b>analyze</b> — {@code POST /api/v1/analyze} of 2 × 40 samples, one client and several;</li>
 *   <li><b>large-upload</b> — one Go upload of 1,000 benchmarks × 200 runs × 3 metrics (600,000 samples, issue
 *       17), then its experiment page and its {@code report.html}: time and size ({@link LargeUploadScenario}).</li>
 * </ol>
 * Every phase stops at its operation count or its time limit, whichever comes first. Latencies are recorded in
 * HdrHistograms by closed-loop clients (see {@link ClosedLoop}: no coordinated omission). The clients share the
 * machine with the server, as CI uploaders on the same host would; on 2 cores that costs the server CPU.
 *
 * <p>Run: {@code ./mvnw -B -q -pl src -am -Pload test -DskipTests [-Dload.args="--databases=h2,postgres"]}.
 */
@Command(name = "service-load", mixinStandardHelpOptions = true,
        description = "Load benchmark of the PerfLab service: uploads, the experiment page and the analyze API.")
public final class ServiceLoad implements Callable<Integer> {

    static final double UPLOAD_TARGET_SAMPLES_PER_SECOND = 50_000;
    static final double PAGE_TARGET_P95_MILLIS = 150;
    static final double ANALYZE_TARGET_P95_MILLIS = 5;

    @Option(names = "--scenarios", split = ",", defaultValue = "uploads,pages,analyze,large-upload",
            description = "Which scenarios to run (default: ${DEFAULT-VALUE}).")
    List<String> scenarios = List.of("uploads", "pages", "analyze", "large-upload");

    @Option(names = "--warmup-seconds", defaultValue = "5",
            description = "Unrecorded warm-up before the uploads and analyze phases (default: ${DEFAULT-VALUE}).")
    int warmupSeconds = 5;

    @Option(names = "--uploaders", defaultValue = "8",
            description = "Concurrent uploaders (default: ${DEFAULT-VALUE}).")
    int uploaders = 8;

    @Option(names = "--upload-seconds", defaultValue = "30",
            description = "Upload phase limit (default: ${DEFAULT-VALUE}).")
    int uploadSeconds = 30;

    @Option(names = "--max-uploads", defaultValue = "100000",
            description = "Upload phase limit (default: ${DEFAULT-VALUE}).")
    long maxUploads = 100_000;

    @Option(names = "--upload-benchmarks", defaultValue = "16",
            description = "Distinct benchmark names the uploaders cycle through (default: ${DEFAULT-VALUE}).")
    int uploadBenchmarks = 16;

    @Option(names = "--upload-metrics", defaultValue = "12",
            description = "Metrics per upload (default: ${DEFAULT-VALUE}).")
    int uploadMetrics = 12;

    @Option(names = "--upload-values", defaultValue = "50",
            description = "Values per metric and side (default: ${DEFAULT-VALUE}).")
    int uploadValues = 50;

    @Option(names = "--upload-sides", defaultValue = "1",
            description = "1: one side with git info, compared with the base branch's latest upload (CI on each "
                    + "commit); 2: both sides in one upload (default: ${DEFAULT-VALUE}).")
    int uploadSides = 1;

    @Option(names = "--experiments", defaultValue = "1000",
            description = "Seeded experiments (default: ${DEFAULT-VALUE}).")
    int experiments = 1000;

    @Option(names = "--runs-per-variant", defaultValue = "40",
            description = "Runs per variant of a seeded experiment (default: ${DEFAULT-VALUE}).")
    int runsPerVariant = 40;

    @Option(names = "--page-clients", defaultValue = "4",
            description = "Clients of the concurrent page phases (default: ${DEFAULT-VALUE}).")
    int pageClients = 4;

    @Option(names = "--page-seconds", defaultValue = "20",
            description = "Limit of each page phase (default: ${DEFAULT-VALUE}).")
    int pageSeconds = 20;

    @Option(names = "--max-page-views", defaultValue = "2000",
            description = "Limit of each warm page phase (default: ${DEFAULT-VALUE}).")
    long maxPageViews = 2000;

    @Option(names = "--page-warmup", defaultValue = "50",
            description = "Experiments viewed, unrecorded, before the cold phases (default: ${DEFAULT-VALUE}).")
    int pageWarmup = 50;

    @Option(names = "--analyze-clients", defaultValue = "4",
            description = "Clients of the concurrent analyze phase (default: ${DEFAULT-VALUE}).")
    int analyzeClients = 4;

    @Option(names = "--analyze-seconds", defaultValue = "15",
            description = "Limit of each analyze phase (default: ${DEFAULT-VALUE}).")
    int analyzeSeconds = 15;

    @Option(names = "--max-analyses", defaultValue = "200000",
            description = "Limit of each analyze phase (default: ${DEFAULT-VALUE}).")
    long maxAnalyses = 200_000;

    @Option(names = "--large-benchmarks", defaultValue = "1000",
            description = "Benchmarks of the large Go upload, 3 metrics each (default: ${DEFAULT-VALUE}).")
    int largeBenchmarks = 1000;

    @Option(names = "--large-runs", defaultValue = "200",
            description = "Runs of each benchmark of the large Go upload (default: ${DEFAULT-VALUE}).")
    int largeRuns = 200;

    @Option(names = "--large-views", defaultValue = "7",
            description = "Requests of the large upload's page and report after the first (default: ${DEFAULT-VALUE}).")
    int largeViews = 7;

    @Option(names = "--databases", split = ",", defaultValue = "h2",
            description = "Databases to run every scenario on, one after the other in this run: h2 (a fresh file in a "
                    + "temporary directory), postgres (a fresh database of an embedded PostgreSQL, the repository "
                    + "tests' binaries, with reWriteBatchedInserts=true as the README advises) (default: "
                    + "${DEFAULT-VALUE}).")
    List<String> databases = List.of("h2");

    @Option(names = "--json", description = "Also write the results as JSON to this file.")
    Path jsonOut;

    @Option(names = "--keep-data", description = "Keep the temporary data directory (its path is printed).")
    boolean keepData;

    /** One line of the result table. */
    record Row(String scenario, long operations, long errors, double opsPerSecond, double samplesPerSecond,
               double p50Millis, double p95Millis, double p99Millis, double maxMillis, double cpuMillisPerOperation,
               String target, boolean met, String database) {

        Row on(String database) {
            return new Row(scenario, operations, errors, opsPerSecond, samplesPerSecond, p50Millis, p95Millis,
                    p99Millis, maxMillis, cpuMillisPerOperation, target, met, database);
        }
    }

    private final JsonMapper json = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private String base;
    private String token;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ServiceLoad()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        List<Row> rows = run(System.out);
        return rows.stream().allMatch(r -> r.errors() == 0) ? 0 : 1;
    }

    /** Starts the server on each database in turn, runs the chosen scenarios, prints the table; returns its rows. */
    List<Row> run(PrintStream out) throws Exception {
        String loadBefore = loadAverage();
        Instant started = Instant.now();
        out.printf("PerfLab service load: databases %s, load average %s, %d cpus%n", String.join(", ", databases),
                loadBefore, Runtime.getRuntime().availableProcessors());
        for (String database : databases) {
            if (!database.equals("h2") && !database.equals("postgres")) {
                throw new CommandLine.ParameterException(new CommandLine(this),
                        "--databases: '" + database + "' is neither h2 nor postgres");
            }
        }
        List<Row> rows = new ArrayList<>();
        for (String database : databases) {
            run(database, out).forEach(row -> rows.add(row.on(database)));
        }
        String loadAfter = loadAverage();
        print(rows, out);
        out.printf("load average before %s, after %s; closed-loop clients in the server's JVM; CPU ms/op is the "
                + "whole process's (server and clients)%n", loadBefore, loadAfter);
        if (jsonOut != null) {
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("started", started.toString());
            document.put("cpus", Runtime.getRuntime().availableProcessors());
            document.put("java", Runtime.version().toString());
            document.put("loadAverageBefore", loadBefore);
            document.put("loadAverageAfter", loadAfter);
            document.put("parameters", parameters());
            document.put("rows", rows);
            Files.writeString(jsonOut, json.writerWithDefaultPrettyPrinter().writeValueAsString(document));
            out.println("wrote " + jsonOut);
        }
        return rows;
    }

    /** The scenarios on one database, in a server of their own. */
    private List<Row> run(String database, PrintStream out) throws Exception {
        Path dataDir = Files.createTempDirectory("perflab-load");
        String bootstrap = "load-" + UUID.randomUUID();
        List<String> arguments = new ArrayList<>(List.of("--server.port=0", "--server.address=127.0.0.1",
                "--perflab.data-dir=" + dataDir, "--perflab.security.bootstrap-token=" + bootstrap,
                "--logging.level.root=WARN", "--spring.main.banner-mode=off"));
        switch (database) {
            case "h2" -> out.printf("%s: data in %s, load average %s%n", database, dataDir, loadAverage());
            case "postgres" -> {
                io.perflab.system.EmbeddedPostgres.Database postgres = io.perflab.system.EmbeddedPostgres.newDatabase();
                String url = postgres.url() + (postgres.url().contains("?") ? "&" : "?") + "reWriteBatchedInserts=true";
                arguments.addAll(List.of("--spring.datasource.url=" + url,
                        "--spring.datasource.username=" + postgres.username(),
                        "--spring.datasource.password=" + postgres.password()));
                out.printf("%s: %s, load average %s%n", database, url, loadAverage());
            }
            default -> throw new IllegalArgumentException(database);
        }
        ConfigurableApplicationContext context = SpringApplication.run(PerfLabApplication.class,
                arguments.toArray(String[]::new));
        List<Row> rows = new ArrayList<>();
        try {
            base = "http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port");
            token = createToken(bootstrap);
            if (scenarios.contains("uploads")) {
                rows.add(uploads(out));
            }
            if (scenarios.contains("pages")) {
                rows.addAll(pages(context, out));
            }
            if (scenarios.contains("analyze")) {
                rows.addAll(analyze(out));
            }
            if (scenarios.contains("large-upload")) {
                rows.addAll(new LargeUploadScenario(this, base, token, largeBenchmarks, largeRuns, largeViews)
                        .run(out));
            }
        } finally {
            context.close();
            if (!keepData) {
                deleteTree(dataDir);
            }
        }
        return rows;
    }

    // ---------------------------------------------------------------------------------------------- uploads

    private Row uploads(PrintStream out) throws Exception {
        List<String> bodies = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 64; i++) {
            bodies.add(uploadBody(i, random));
        }
        int samplesPerUpload = uploadSides * uploadMetrics * uploadValues;
        ClosedLoop.Operation upload = (client, index) -> {
            String body = bodies.get((int) (index % bodies.size()));
            HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(base + "/api/v1/uploads"))
                    .header("Content-Type", "application/json").header("Authorization", "Bearer " + token)
                    .POST(HttpRequest.BodyPublishers.ofString(body)));
            expect(response, 201);
            return samplesPerUpload;
        };
        out.printf("uploads: %d uploaders, %d samples per upload, warm-up %d s …%n", uploaders, samplesPerUpload,
                warmupSeconds);
        ClosedLoop.run(uploaders, Long.MAX_VALUE, Duration.ofSeconds(warmupSeconds), upload);
        ClosedLoop.Outcome outcome = ClosedLoop.run(uploaders, maxUploads, Duration.ofSeconds(uploadSeconds), upload);
        return row("uploads ×" + uploaders + " (" + samplesPerUpload + " samples each)", outcome,
                "≥ 50,000 samples/s", outcome.samplesPerSecond() >= UPLOAD_TARGET_SAMPLES_PER_SECOND);
    }

    /** A native JSON upload: one benchmark with {@code uploadMetrics} metrics of {@code uploadValues} values. */
    String uploadBody(int index, SplittableRandom random) {
        Map<String, Object> metrics = new LinkedHashMap<>();
        for (int m = 0; m < uploadMetrics; m++) {
            List<Double> values = new ArrayList<>();
            double center = 100.0 * (m + 1);
            for (int v = 0; v < uploadValues; v++) {
                values.add(Math.round((center + center * 0.02 * (random.nextDouble() - 0.5)) * 1000) / 1000.0);
            }
            metrics.put("op" + m + "_ns", Map.of("unit", "ns", "direction", "lower", "values", values));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("benchmark", "load/bench-" + (index % uploadBenchmarks));
        if (uploadSides == 2) {
            body.put("without", Map.of("metrics", metrics));
            body.put("with", Map.of("metrics", metrics));
        } else {
            body.put("variant", "with");
            body.put("metrics", metrics);
        }
        body.put("git", Map.of("repository", "https://example.org/perflab.git", "branch", "main",
                "commit", String.format(Locale.ROOT, "%040x", index + 1)));
        body.put("machine", Map.of("cpus", 2, "os", "Linux"));
        return json.writeValueAsString(body);
    }

    // ------------------------------------------------------------------------------------------------ pages

    private List<Row> pages(ConfigurableApplicationContext context, PrintStream out) throws Exception {
        out.printf("pages: seeding %d experiments of %d runs × %d metrics …%n", experiments, 2 * runsPerVariant,
                ExperimentSeeder.METRICS.size());
        long t0 = System.nanoTime();
        List<Long> ids = new ArrayList<>(new ExperimentSeeder(context).seed(experiments, runsPerVariant, 11));
        out.printf("pages: seeded in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        Collections.shuffle(ids, new java.util.Random(13));
        int warmup = Math.min(pageWarmup, ids.size() / 5);
        List<Long> viewed = Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < warmup; i++) {
            page(ids.get(i));
            viewed.add(ids.get(i));
        }
        List<Long> cold = ids.subList(warmup, ids.size());
        int half = cold.size() / 2;
        List<Row> rows = new ArrayList<>();
        rows.add(coldPages("page cold ×1", cold.subList(0, half), 1, viewed));
        rows.add(coldPages("page cold ×" + pageClients, cold.subList(half, cold.size()), pageClients, viewed));
        List<Long> warmSet = List.copyOf(viewed);
        ClosedLoop.Operation warm = (client, index) -> {
            page(warmSet.get(ThreadLocalRandom.current().nextInt(warmSet.size())));
            return 0;
        };
        rows.add(pageRow("page warm ×1", ClosedLoop.run(1, maxPageViews, Duration.ofSeconds(pageSeconds), warm)));
        rows.add(pageRow("page warm ×" + pageClients,
                ClosedLoop.run(pageClients, maxPageViews, Duration.ofSeconds(pageSeconds), warm)));
        return rows;
    }

    private Row coldPages(String name, List<Long> ids, int clients, List<Long> viewed) throws InterruptedException {
        ClosedLoop.Outcome outcome = ClosedLoop.run(clients, ids.size(), Duration.ofSeconds(pageSeconds),
                (client, index) -> {
                    long id = ids.get((int) index);
                    page(id);
                    viewed.add(id);
                    return 0;
                });
        return pageRow(name, outcome);
    }

    private Row pageRow(String name, ClosedLoop.Outcome outcome) {
        return row(name, outcome, "p95 < 150 ms", outcome.percentileMillis(95) < PAGE_TARGET_P95_MILLIS);
    }

    private void page(long id) throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(base + "/experiments/" + id))
                .header("Accept", "text/html").GET());
        expect(response, 200);
        if (!response.body().contains("user_cpu_us_per_req")) {
            throw new IllegalStateException("experiment page " + id + " shows no results");
        }
    }

    // ---------------------------------------------------------------------------------------------- analyze

    private List<Row> analyze(PrintStream out) throws Exception {
        SplittableRandom random = new SplittableRandom(17);
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            double[] with = new double[40];
            double[] without = new double[40];
            for (int j = 0; j < 40; j++) {
                with[j] = 99 + 2 * random.nextDouble();
                without[j] = 100 + 2 * random.nextDouble();
            }
            bodies.add(json.writeValueAsString(Map.of("with", with, "without", without)));
        }
        ClosedLoop.Operation analyze = (client, index) -> {
            HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(base + "/api/v1/analyze"))
                    .header("Content-Type", "application/json").header("Accept", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(bodies.get((int) (index % bodies.size())))));
            expect(response, 200);
            return 80;
        };
        out.printf("analyze: warm-up %d s …%n", warmupSeconds);
        ClosedLoop.run(1, Long.MAX_VALUE, Duration.ofSeconds(warmupSeconds), analyze);
        List<Row> rows = new ArrayList<>();
        for (int clients : new int[] {1, analyzeClients}) {
            ClosedLoop.Outcome outcome = ClosedLoop.run(clients, maxAnalyses, Duration.ofSeconds(analyzeSeconds),
                    analyze);
            rows.add(row("analyze 2×40 ×" + clients, outcome, "p95 < 5 ms",
                    outcome.percentileMillis(95) < ANALYZE_TARGET_P95_MILLIS));
        }
        return rows;
    }

    // ---------------------------------------------------------------------------------------------- helpers

    private String createToken(String bootstrap) throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(base + "/api/v1/tokens"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + bootstrap)
                // a token's name is unique among live tokens, and a service may be loaded more than once
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"load-uploader " + System.currentTimeMillis()
                        + "\"}")));
        expect(response, 201);
        return json.readTree(response.body()).get("token").asString();
    }

    HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.timeout(Duration.ofSeconds(120)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static void expect(HttpResponse<String> response, int status) {
        if (response.statusCode() != status) {
            String body = response.body();
            throw new IllegalStateException(response.request().method() + " " + response.request().uri().getPath()
                    + " → " + response.statusCode() + ": " + (body.length() > 300 ? body.substring(0, 300) : body));
        }
    }

    static Row row(String scenario, ClosedLoop.Outcome o, String target, boolean met) {
        return new Row(scenario, o.operations(), o.errors(), o.operationsPerSecond(), o.samplesPerSecond(),
                o.percentileMillis(50), o.percentileMillis(95), o.percentileMillis(99), o.percentileMillis(100),
                o.cpuMillisPerOperation(), target, met && o.errors() == 0 && o.operations() > 0, null);
    }

    static void print(List<Row> rows, PrintStream out) {
        String format = "%-9s %-34s %9s %7s %10s %12s %9s %9s %9s %10s %-20s %s%n";
        out.printf(format, "database", "scenario", "ops", "errors", "ops/s", "samples/s", "p50 ms", "p95 ms", "p99 ms",
                "CPU ms/op", "target", "met?");
        for (Row r : rows) {
            out.printf(format, r.database() == null ? "-" : r.database(), r.scenario(), r.operations(), r.errors(),
                    fmt(r.opsPerSecond(), 1), r.samplesPerSecond() == 0 ? "-" : fmt(r.samplesPerSecond(), 0),
                    fmt(r.p50Millis(), 2), fmt(r.p95Millis(), 2), fmt(r.p99Millis(), 2),
                    fmt(r.cpuMillisPerOperation(), 2), r.target(), r.met() ? "yes" : "NO");
        }
        rows.stream().filter(r -> r.errors() > 0).forEach(r -> out.println("ERRORS in " + r.scenario()));
    }

    private static String fmt(double value, int decimals) {
        return String.format(Locale.ROOT, "%,." + decimals + "f", value);
    }

    private Map<String, Object> parameters() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("databases", databases);
        p.put("scenarios", scenarios);
        p.put("warmupSeconds", warmupSeconds);
        p.put("uploaders", uploaders);
        p.put("uploadSeconds", uploadSeconds);
        p.put("maxUploads", maxUploads);
        p.put("uploadBenchmarks", uploadBenchmarks);
        p.put("uploadMetrics", uploadMetrics);
        p.put("uploadValues", uploadValues);
        p.put("uploadSides", uploadSides);
        p.put("experiments", experiments);
        p.put("runsPerVariant", runsPerVariant);
        p.put("pageClients", pageClients);
        p.put("pageSeconds", pageSeconds);
        p.put("analyzeClients", analyzeClients);
        p.put("analyzeSeconds", analyzeSeconds);
        p.put("largeBenchmarks", largeBenchmarks);
        p.put("largeRuns", largeRuns);
        p.put("largeViews", largeViews);
        return p;
    }

    private static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
