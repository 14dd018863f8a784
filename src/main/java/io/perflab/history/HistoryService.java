package io.perflab.history;

import io.perflab.experiment.MetricDefinition;
import io.perflab.stats.ChangePoint;
import io.perflab.stats.EDivisive;
import io.perflab.runner.experiment.VariantName;
import io.perflab.stats.Summary;
import io.perflab.system.InvalidInputException;
import io.perflab.system.NotFoundException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.stereotype.Service;

/**
 * Benchmark histories: per upload of a benchmark, the mean of one metric, in commit-time order, and the change
 * points E-divisive finds in that series of means.
 *
 * <p>The detector runs with level 0.05, 199 permutations and segments of at least 3 uploads (the statistics
 * package's defaults, 0.01 and 5, suit long series; a CI history is often a dozen points, where a 5-point minimum
 * cannot see a change in the last four, and with 10 points the smallest possible permutation p is about 0.01).
 */
@Service
public class HistoryService {

    static final EDivisive DETECTOR = new EDivisive(0.05, 199, 3, 1);

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
        return repository.benchmarks(nameContains, page, size);
    }

    /** How many benchmarks {@link #benchmarks} would list over all its pages. */
    public long countBenchmarks(String nameContains) {
        return repository.countBenchmarks(nameContains);
    }

    /** The branches the benchmark's uploads name, sorted. */
    public List<String> branches(String benchmark) {
        return repository.branches(benchmark);
    }

    /** Metric keys of the benchmark's uploads, sorted. */
    public List<String> metrics(String benchmark) {
        return repository.metrics(benchmark);
    }

    /**
     * @param metric the metric, or null for the benchmark's first (sorted) metric
     * @param branch only uploads on this branch, or null for all
     * @param baseUrl the server's address, for links
     */
    public History history(String benchmark, String metric, String branch, String baseUrl) {
        List<String> metrics = metrics(benchmark);
        if (metrics.isEmpty()) {
            throw new NotFoundException("There are no uploads of the benchmark '" + benchmark + "'; GET "
                    + "/api/v1/benchmarks lists the benchmarks.");
        }
        String chosen = metric == null || metric.isBlank() ? metrics.get(0) : metric;
        if (!metrics.contains(chosen)) {
            throw InvalidInputException.of("metric", "The benchmark '" + benchmark + "' has no metric '" + chosen
                    + "'; it has: " + String.join(", ", metrics) + ".");
        }
        String onBranch = branch == null || branch.isBlank() ? null : branch;
        Map<Long, HistoryRepository.Upload> uploads = new LinkedHashMap<>();
        for (HistoryRepository.Upload u : repository.uploads(benchmark, onBranch)) {
            uploads.put(u.id(), u);
        }
        // the samples come in upload order, the points go in commit-time order
        Map<Long, HistoryPoint> byUpload = new HashMap<>();
        repository.forEachUpload(benchmark, chosen, onBranch, (id, sides) -> {
            List<Double> sample = sides.getOrDefault(VariantName.WITH.label(), sides.get(VariantName.WITHOUT.label()));
            if (uploads.containsKey(id) && sample != null) {
                byUpload.put(id, point(uploads.get(id), sample, baseUrl));
            }
        });
        List<HistoryPoint> points = uploads.keySet().stream().map(byUpload::get).filter(Objects::nonNull).toList();
        MetricDefinition definition = repository.definition(benchmark, chosen);
        return new History(benchmark, chosen, definition.unit(), definition.higherIsBetter() ? "higher" : "lower",
                onBranch, metrics, points, changePoints(points),
                "E-divisive means, level " + DETECTOR.significanceLevel() + ", " + DETECTOR.permutations()
                        + " permutations, segments of at least " + DETECTOR.minSegment() + " points");
    }

    /** Mean with a 95 % Student-t interval of it ({@link Summary#meanHalfWidth}); no interval for one value. */
    static HistoryPoint point(HistoryRepository.Upload u, List<Double> sample, String baseUrl) {
        Summary summary = Summary.of(sample.stream().mapToDouble(Double::doubleValue).toArray(), "upload");
        double halfWidth = summary.meanHalfWidth(0.95);
        boolean interval = summary.n() >= 2;
        return new HistoryPoint(u.commit(), u.branch(), u.commitTime(), u.createdAt(), summary.mean(),
                interval ? summary.mean() - halfWidth : null, interval ? summary.mean() + halfWidth : null,
                summary.n(), u.id(), baseUrl + "/experiments/" + u.id());
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
