package io.perflab.history;

import io.perflab.stats.Direction;
import io.perflab.system.ApiValues;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * One page of a metric's series across uploads of a benchmark, ordered by commit time (then upload time), with the
 * change points found within the page. Page 0 holds the series' latest {@code size} uploads, page 1 the ones before
 * those, and so on.
 *
 * @param branch the branch filter, or null for all branches
 * @param metrics every metric the benchmark's uploads have, to choose from
 * @param page which page of the series this is, from 0 (its latest uploads)
 * @param size the most uploads a page holds
 * @param total how many uploads the series has in all (those on the branch asked for that measured the metric)
 * @param from the position in the whole series, from 0, of the page's first upload: point {@code i} is the series'
 *     upload {@code from + i}, and so is a change point of {@code index} {@code i}
 * @param changePoints found within this page's points; their indexes are into {@code points}
 * @param detector how the change points were found
 * @param notes which uploads' figures the page converts from another unit to the latest upload's, and which it
 *     leaves out and why (they measured the metric in a unit that does not convert, or in another direction), empty
 *     when nothing
 */
public record History(String benchmark, String metric, String unit,
                      @ApiValues(value = Direction.class, written = "label") String direction,
                      @Schema(nullable = true) String branch,
                      List<String> metrics, int page, int size, long total, int from, List<HistoryPoint> points,
                      List<HistoryChangePoint> changePoints, String detector, List<String> notes) {

    /** How many pages of {@link #size} the series fills, at least 1. */
    public long pages() {
        return pages(total, size);
    }

    static long pages(long total, int size) {
        return Math.max(1, (total + size - 1) / size);
    }
}
