package io.perflab.experiment;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One page of the metrics a filter selects, in the results' order (headline metrics first, then by name, so that
 * an upload's benchmarks keep their metrics together): what a results page or a report lists, so that it stays
 * small however many metrics an upload brought.
 *
 * @param metrics the metrics of this page
 * @param page this page, 0-based
 * @param pages how many pages the matching metrics fill (at least 1)
 * @param matching how many metrics the filter selects
 * @param total how many metrics the experiment has
 */
public record MetricPage(List<MetricComparison> metrics, MetricFilter filter, int page, int pages, int matching,
                         int total) {

    public MetricPage {
        metrics = List.copyOf(metrics);
    }

    /**
     * Page {@code page} (moved into range) of {@code size} metrics of those in {@code all} that {@code filter} selects.
     */
    public static MetricPage of(List<MetricComparison> all, MetricFilter filter, int page, int size) {
        List<MetricComparison> matching = all.stream().filter(filter::matches).toList();
        int pages = Math.max(1, (matching.size() + size - 1) / size);
        int current = Math.max(0, Math.min(page, pages - 1));
        int from = current * size;
        return new MetricPage(matching.subList(from, Math.min(matching.size(), from + size)), filter, current, pages,
                matching.size(), all.size());
    }

    /** The keys of the first {@code n} metrics of this page. */
    public List<String> keys(int n) {
        return metrics.stream().limit(n).map(MetricComparison::key).toList();
    }

    /** The query of page {@code target} under the same filter: {@code ?page=2&metric=Join}. */
    public String query(int target) {
        StringBuilder query = new StringBuilder("?page=").append(target);
        if (filter.metric() != null) {
            query.append("&metric=").append(URLEncoder.encode(filter.metric(), StandardCharsets.UTF_8));
        }
        if (filter.verdict() != null) {
            query.append("&verdict=").append(URLEncoder.encode(filter.verdict(), StandardCharsets.UTF_8));
        }
        return query.toString();
    }

    /** Whether metrics are left out: other pages, or metrics the filter does not select. */
    public boolean partial() {
        return metrics.size() < total;
    }
}
