package io.perflab.history;

import io.perflab.experiment.LeadingMetrics;
import io.perflab.experiment.MetricDefinition;
import io.perflab.stats.ChangePoint;
import io.perflab.stats.Direction;
import io.perflab.stats.EDivisive;
import io.perflab.runner.experiment.VariantName;
import io.perflab.stats.Summary;
import io.perflab.system.InvalidInputException;
import io.perflab.system.NotFoundException;
import io.perflab.system.Texts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import org.springframework.stereotype.Service;

/**
 * Benchmark histories: per upload of a benchmark, the mean of one metric, in commit-time order, and the change
 * points E-divisive finds in that series of means. The series is in the unit and direction of the latest upload in
 * it (on the branch asked for): a benchmark run with another time unit since (JMH's {@code -tu}) would otherwise put
 * 12 µs and 0.012 ms side by side, and a thousandfold step would be a change point. Uploads in another unit of the
 * same dimension ({@link UnitConversion}) are converted to it, each such point saying so; uploads in a unit that
 * does not convert, or with the other direction, are left out. A note names both.
 *
 * <p>The detector runs with level 0.05, 199 permutations and segments of at least 3 uploads (the statistics
 * package's defaults, 0.01 and 5, suit long series; a CI history is often a dozen points, where a 5-point minimum
 * cannot see a change in the last four, and with 10 points the smallest possible permutation p is about 0.01).
 */
@Service
public class HistoryService {

    static final EDivisive DETECTOR = new EDivisive(0.05, 199, 3, 1);

    /** How many of a benchmark's metrics a message names. */
    private static final int METRICS_NAMED = 20;

    /** How many left-out uploads a note names. */
    private static final int MAX_IDS_NAMED = 10;

    private final HistoryRepository repository;

    HistoryService(HistoryRepository repository) {
        this.repository = repository;
    }

    /**
     * One page of the benchmarks that have uploads, by name.
     *
     * @param nameContains only names containing this text, any case; null or blank for all
     */
    public List<BenchmarkSummary> benchmarks(String nameContains, int page, int size) {
        return repository.benchmarks(Texts.composed(nameContains), page, size);
    }

    /** How many benchmarks {@link #benchmarks} would list over all its pages. */
    public long countBenchmarks(String nameContains) {
        return repository.countBenchmarks(Texts.composed(nameContains));
    }

    /** The branches the benchmark's uploads name, sorted. */
    public List<String> branches(String benchmark) {
        return repository.branches(Texts.composed(benchmark));
    }

    /** Metric keys of the benchmark's uploads, sorted. */
    public List<String> metrics(String benchmark) {
        return repository.metrics(Texts.composed(benchmark));
    }

    /**
     * One page of the series: page 0 holds its latest {@code size} uploads, page 1 the {@code size} before those,
     * and so on, each in commit-time order, with the change points found within the page. A CI history grows by an
     * upload a job, and the whole of it was read, answered and drawn at once (1,500 uploads were 426 KB of JSON).
     *
     * @param asked the benchmark's name, composed here as uploads store it ({@link Texts#composed})
     * @param metric the metric, or null for the benchmark's first (sorted) metric that measures time or throughput
     *     ({@link LeadingMetrics}), else its first
     * @param branch only uploads on this branch, or null for all
     * @param page which page, from 0 (the latest uploads); checked by the caller with
     *     {@link io.perflab.system.ApiPage#check}
     * @param size uploads to a page
     * @param baseUrl the server's address, for links
     * @throws NotFoundException when the series has uploads and the page is past the last of them
     */
    public History history(String asked, String metric, String branch, int page, int size, String baseUrl) {
        String benchmark = Texts.composed(asked);
        List<String> metrics = metrics(benchmark);
        if (metrics.isEmpty()) {
            throw new NotFoundException("There are no uploads of the benchmark '" + Texts.cut(benchmark, 120)
                    + "'; GET /api/v1/benchmarks lists the benchmarks.");
        }
        String chosen = metric == null || metric.isBlank()
                ? LeadingMetrics.timeFirst(metrics, key -> key, key -> null).get(0) : metric;
        if (!metrics.contains(chosen)) {
            // both cut: a metric asked for may be kilobytes long, and a benchmark may have thousands of metrics
            throw InvalidInputException.of("metric", "The benchmark '" + Texts.cut(benchmark, 120) + "' has no "
                    + "metric '" + Texts.cut(chosen, 120) + "'; it has: "
                    + String.join(", ", metrics.subList(0, Math.min(metrics.size(), METRICS_NAMED)))
                    + (metrics.size() > METRICS_NAMED ? ", … (" + metrics.size() + " in all)" : "") + ".");
        }
        String onBranch = branch == null || branch.isBlank() ? null : branch;
        Map<Long, MetricDefinition> definitions = repository.definitions(benchmark, chosen);
        // the uploads (on the branch) that measured the metric, in commit-time order: the series to cut in pages
        List<HistoryRepository.Upload> series = repository.uploads(benchmark, onBranch).stream()
                .filter(u -> definitions.containsKey(u.id())).toList();
        // the unit of the latest upload in the series (of the branch asked for), else of the benchmark's latest,
        // whichever page is shown, so that every page of a series is in one unit
        MetricDefinition definition = series.stream().map(HistoryRepository.Upload::id).max(Long::compare)
                .map(definitions::get).orElseGet(() -> repository.definition(benchmark, chosen));
        int end = (int) Math.max(0, series.size() - (long) page * size);
        if (end == 0 && page > 0) {
            long pages = History.pages(series.size(), size);
            throw new NotFoundException("There is no page " + page + " of the history of '" + chosen + "' in '"
                    + Texts.cut(benchmark, 120) + "': its " + series.size() + (series.size() == 1 ? " upload fills"
                    : " uploads fill") + " " + pages + (pages == 1 ? " page" : " pages") + " of " + size
                    + " (from 0, page 0 the latest).");
        }
        int from = Math.max(0, end - size);
        // the samples come in upload order, the points go in commit-time order
        Map<Long, HistoryRepository.Upload> uploads = new LinkedHashMap<>();
        for (HistoryRepository.Upload u : series.subList(from, end)) {
            uploads.put(u.id(), u);
        }
        Map<Long, HistoryPoint> byUpload = new HashMap<>();
        Map<String, List<Long>> converted = new LinkedHashMap<>();
        Map<String, List<Long>> unlike = new LinkedHashMap<>();
        repository.forEachUpload(uploads.keySet(), chosen, (id, sides) -> {
            List<Double> sample = sides.getOrDefault(VariantName.WITH.label(), sides.get(VariantName.WITHOUT.label()));
            if (sample == null) {
                return;
            }
            // the page's uploads only, each with its definition (the series holds those that have one)
            MetricDefinition own = definitions.get(id);
            double[] values = sample.stream().mapToDouble(Double::doubleValue).toArray();
            if (alike(own, definition)) {
                byUpload.put(id, point(uploads.get(id), values, null, baseUrl));
                return;
            }
            Optional<UnitConversion> toLatest = own.higherIsBetter() == definition.higherIsBetter()
                    ? UnitConversion.between(own.unit(), definition.unit()) : Optional.empty();
            if (toLatest.isPresent()) {
                double[] convertedValues = Arrays.stream(values).map(toLatest.get()::apply).toArray();
                byUpload.put(id, point(uploads.get(id), convertedValues, own.unit(), baseUrl));
                converted.computeIfAbsent(own.unit(), k -> new ArrayList<>()).add(id);
            } else {
                unlike.computeIfAbsent(say(own), k -> new ArrayList<>()).add(id);
            }
        });
        List<HistoryPoint> points = uploads.keySet().stream().map(byUpload::get).filter(Objects::nonNull).toList();
        List<String> notes = new ArrayList<>();
        converted.forEach((unit, ids) -> notes.add(converted(chosen, unit, definition.unit(),
                ids.stream().sorted().toList())));
        unlike.forEach((measured, ids) -> notes.add(leftOut(chosen, measured, ids.stream().sorted().toList())));
        return new History(benchmark, chosen, definition.unit(),
                (definition.higherIsBetter() ? Direction.HIGHER_IS_BETTER : Direction.LOWER_IS_BETTER).label(),
                onBranch, metrics, page, size, series.size(), from, points, changePoints(points),
                "E-divisive means, level " + DETECTOR.significanceLevel() + ", " + DETECTOR.permutations()
                        + " permutations, segments of at least " + DETECTOR.minSegment() + " points", notes);
    }

    private static boolean alike(MetricDefinition a, MetricDefinition b) {
        return Objects.equals(a.unit(), b.unit()) && a.higherIsBetter() == b.higherIsBetter();
    }

    private static String say(MetricDefinition d) {
        return "in '" + d.unit() + "', " + (d.higherIsBetter() ? "higher" : "lower") + " is better";
    }

    /** "5 uploads measured 'parse' in 'us/op', lower is better (experiments 1, 2, …), not as the latest …". */
    private static String leftOut(String metric, String measured, List<Long> ids) {
        return uploadsMeasured(metric, measured, ids) + ", not as the latest upload does: "
                + (ids.size() == 1 ? "it is" : "they are") + " left out of this series.";
    }

    /** "5 uploads measured 'parse' in 'us/op' (experiments 1, 2, …): their values are converted to 'ms/op', …". */
    private static String converted(String metric, String unit, String to, List<Long> ids) {
        return uploadsMeasured(metric, "in '" + unit + "'", ids) + ": " + (ids.size() == 1 ? "its" : "their")
                + " values are converted to '" + to + "', the unit of the latest upload.";
    }

    private static String uploadsMeasured(String metric, String measured, List<Long> ids) {
        String shown = ids.stream().limit(MAX_IDS_NAMED).map(String::valueOf)
                .collect(Collectors.joining(", ")) + (ids.size() > MAX_IDS_NAMED ? ", …" : "");
        return ids.size() + (ids.size() == 1 ? " upload" : " uploads") + " measured '" + metric + "' " + measured
                + " (experiment" + (ids.size() == 1 ? " " : "s ") + shown + ")";
    }

    /**
     * Mean with a 95 % Student-t interval of it ({@link Summary#meanHalfWidth}); no interval for one value.
     *
     * @param convertedFrom the unit the upload stored the values in when they are converted, else null
     */
    static HistoryPoint point(HistoryRepository.Upload u, double[] values, String convertedFrom, String baseUrl) {
        Summary summary = Summary.of(values, "upload");
        double halfWidth = summary.meanHalfWidth(0.95);
        boolean interval = summary.n() >= 2;
        return new HistoryPoint(u.commit(), u.branch(), u.commitTime(), u.createdAt(), summary.mean(),
                interval ? summary.mean() - halfWidth : null, interval ? summary.mean() + halfWidth : null,
                summary.n(), u.id(), baseUrl + "/experiments/" + u.id(), convertedFrom);
    }

    static List<HistoryChangePoint> changePoints(List<HistoryPoint> points) {
        if (points.size() < 2 * DETECTOR.minSegment()) {
            return List.of();
        }
        double[] series = points.stream().mapToDouble(HistoryPoint::mean).toArray();
        List<HistoryChangePoint> found = new ArrayList<>();
        for (ChangePoint c : DETECTOR.detect(series)) {
            HistoryPoint at = points.get(c.index());
            Double percent = c.meanBefore() == 0 ? null : 100 * (c.meanAfter() / c.meanBefore() - 1);
            found.add(new HistoryChangePoint(c.index(), at.commit(), at.experimentId(), c.meanBefore(),
                    c.meanAfter(), percent, c.pValue()));
        }
        return found;
    }
}
