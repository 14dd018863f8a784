package io.perflab.history;

import java.util.List;

/**
 * A metric's series across uploads of a benchmark, ordered by commit time (then upload time), with its change
 * points.
 *
 * @param branch the branch filter, or null for all branches
 * @param metrics every metric the benchmark's uploads have, to choose from
 * @param detector how the change points were found
 * @param notes which uploads' figures the series converts from another unit to the latest upload's, and which it
 *     leaves out and why (they measured the metric in a unit that does not convert, or in another direction), empty
 *     when nothing
 */
public record History(String benchmark, String metric, String unit, String direction, String branch,
                      List<String> metrics, List<HistoryPoint> points, List<HistoryChangePoint> changePoints,
                      String detector, List<String> notes) {
}
