package io.perflab.history;

import java.util.List;

/**
 * A metric's series across uploads of a benchmark, ordered by commit time (then upload time), with its change
 * points.
 *
 * @param branch the branch filter, or null for all branches
 * @param metrics every metric the benchmark's uploads have, to choose from
 * @param detector how the change points were found
 * @param notes what the series leaves out and why (uploads that measured the metric in another unit or direction
 *     than the latest upload), empty when nothing
 */
public record History(String benchmark, String metric, String unit, String direction, String branch,
                      List<String> metrics, List<HistoryPoint> points, List<HistoryChangePoint> changePoints,
                      String detector, List<String> notes) {
}
