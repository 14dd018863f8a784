package io.perflab.load;

import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link ServiceLoad}'s {@code large-upload} scenario (issue 17): one Go upload of {@code benchmarks} × {@code runs}
 * × 3 metrics ({@link GoBenchFile}), then its experiment page and its {@code report.html}, each requested once
 * (the first view, which computes the comparison of every metric, is reported apart) and then {@code views} times
 * more by one client, one request after the other: the rows' p50 is the median of those. The target column holds
 * the response's size; the targets are a page under 1 s and 1 MB, a report under 5 MB.
 */
final class LargeUploadScenario {

    static final double PAGE_TARGET_MILLIS = 1000;
    static final int PAGE_TARGET_BYTES = 1_000_000;
    static final int REPORT_TARGET_BYTES = 5_000_000;

    private final ServiceLoad load;
    private final String base;
    private final String token;
    private final int benchmarks;
    private final int runs;
    private final int views;

    LargeUploadScenario(ServiceLoad load, String base, String token, int benchmarks, int runs, int views) {
        this.load = load;
        this.base = base;
        this.token = token;
        this.benchmarks = benchmarks;
        this.runs = runs;
        this.views = views;
    }

    List<ServiceLoad.Row> run(PrintStream out) throws Exception {
        String file = GoBenchFile.generate(benchmarks, runs, 17);
        int samples = benchmarks * runs * 3;
        out.printf(Locale.ROOT, "large upload: %,d benchmarks × %,d runs × 3 metrics = %,d samples, %,d bytes …%n",
                benchmarks, runs, samples, file.getBytes(StandardCharsets.UTF_8).length);
        AtomicLong id = new AtomicLong();
        ClosedLoop.Outcome upload = ClosedLoop.run(1, 1, Duration.ofMinutes(10), (client, index) -> {
            HttpResponse<String> response = load.send(HttpRequest.newBuilder(URI.create(base
                    + "/api/v1/uploads?format=gobench")).header("Content-Type", "text/plain")
                    .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.ofString(file)));
            ServiceLoad.expect(response, 201);
            id.set(Long.parseLong(response.body().replaceAll("(?s).*\"experimentId\"\\s*:\\s*(\\d+).*", "$1")));
            return samples;
        });
        List<ServiceLoad.Row> rows = new ArrayList<>();
        rows.add(ServiceLoad.row("large upload (" + String.format(Locale.ROOT, "%,d", samples) + " samples)",
                upload, "stored", upload.operations() == 1));
        rows.addAll(views("large upload: page", "/experiments/" + id.get(), PAGE_TARGET_BYTES, PAGE_TARGET_MILLIS));
        rows.addAll(views("large upload: report.html", "/api/v1/experiments/" + id.get() + "/report.html",
                REPORT_TARGET_BYTES, Double.POSITIVE_INFINITY));
        return rows;
    }

    /** The first request of {@code path}, then the median of {@code views} more; the target column says the size. */
    private List<ServiceLoad.Row> views(String name, String path, int maxBytes, double maxMillis) throws Exception {
        AtomicLong bytes = new AtomicLong();
        ClosedLoop.Operation view = (client, index) -> {
            HttpResponse<String> response = load.send(HttpRequest.newBuilder(URI.create(base + path))
                    .header("Accept", "text/html").GET());
            ServiceLoad.expect(response, 200);
            bytes.set(response.body().getBytes(StandardCharsets.UTF_8).length);
            return 0;
        };
        ClosedLoop.Outcome first = ClosedLoop.run(1, 1, Duration.ofMinutes(5), view);
        ClosedLoop.Outcome then = ClosedLoop.run(1, views, Duration.ofMinutes(10), view);
        String size = String.format(Locale.ROOT, "%,d bytes", bytes.get());
        boolean small = bytes.get() < maxBytes;
        return List.of(ServiceLoad.row(name + ", first", first, size, small),
                ServiceLoad.row(name + " ×" + views, then, size, small && then.percentileMillis(50) < maxMillis));
    }
}
