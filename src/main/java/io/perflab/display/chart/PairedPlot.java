package io.perflab.display.chart;

import io.perflab.display.Format;
import java.util.ArrayList;
import java.util.List;

/**
 * The change of one metric pair by pair, in run order: each pair's ratio with/without (its windows' mean
 * log ratio, as a percent change), a line at no change, and the mean change with its confidence interval as a band.
 * The pair is the unit of replication of a paired design, so this is the plot its interval is computed from: a
 * trend shows the change drifting, a lone point a pair that went wrong, a band clear of the zero line a settled
 * change.
 */
public final class PairedPlot {

    private static final double WIDTH = 420;
    private static final double HEIGHT = 280;
    private static final String BAND = "#fde7d9";

    private PairedPlot() {
    }

    /**
     * One pair's change.
     *
     * @param pair the pair's recorded index, from 0 (a failed pair left out leaves a gap)
     * @param percent 100·(e<sup>r</sup> − 1) of its mean log ratio r
     */
    public record Point(int pair, double percent) {
    }

    /**
     * The plot of {@code metric}'s per-pair changes, with the mean change {@code percent} and its interval; the
     * interval may be null when it could not be computed.
     */
    public static String draw(String id, String metric, List<Point> points, Double percent, Double ciLowPercent,
                              Double ciHighPercent) {
        Frame frame = new Frame(WIDTH, HEIGHT, 72, 14, 30, 40);
        List<Double> shown = new ArrayList<>();
        points.forEach(p -> shown.add(p.percent()));
        shown.add(0.0);
        if (ciLowPercent != null && ciHighPercent != null) {
            shown.add(ciLowPercent);
            shown.add(ciHighPercent);
        }
        Scale y = Scale.covering(shown.stream().mapToDouble(Double::doubleValue).toArray(), frame.bottom(),
                frame.top());
        int lastPair = Math.max(1, points.stream().mapToInt(Point::pair).max().orElse(1));
        Scale x = new Scale(0, lastPair, frame.left() + 6, frame.right() - 6);
        Svg svg = Svg.chart(id, WIDTH, HEIGHT, metric + ": change per pair",
                "Each pair's change of " + metric + " with against without (the mean of its windows' log ratios, as "
                        + "a percentage) against the pair's index in run order, from 0, " + points.size() + " pairs"
                        + (percent == null ? "" : "; the shaded band is the interval of the mean change "
                        + Format.percent(percent) + " " + Format.percentInterval(ciLowPercent, ciHighPercent))
                        + ". The dashed line is no change.");
        frame.valueAxis(svg, y, "change of " + metric + " (%)");
        if (ciLowPercent != null && ciHighPercent != null) {
            double top = y.at(ciHighPercent);
            svg.leaf("rect", "x", frame.left(), "y", top, "width", frame.plotWidth(),
                    "height", Math.max(0.5, y.at(ciLowPercent) - top), "fill", BAND);
        }
        if (percent != null) {
            svg.line(frame.left(), y.at(percent), frame.right(), y.at(percent), "stroke", Palette.WITH,
                    "stroke-opacity", "0.7");
        }
        svg.line(frame.left(), y.at(0), frame.right(), y.at(0), "stroke", Palette.AXIS, "stroke-dasharray", "4 3");
        for (double tick : Scale.ticks(0, lastPair, 6, true)) {
            double tx = x.at(tick);
            svg.line(tx, frame.bottom(), tx, frame.bottom() + 4, "stroke", Palette.AXIS);
            svg.label(tx, frame.bottom() + 15, Long.toString((long) tick), "text-anchor", "middle");
        }
        if (points.size() > 1) {
            StringBuilder line = new StringBuilder();
            points.forEach(p -> line.append(Svg.number(x.at(p.pair()))).append(',')
                    .append(Svg.number(y.at(p.percent()))).append(' '));
            svg.leaf("polyline", "fill", "none", "stroke", Palette.MUTED, "stroke-opacity", "0.45",
                    "points", line.toString().strip());
        }
        for (Point p : points) {
            svg.open("circle", "cx", x.at(p.pair()), "cy", y.at(p.percent()), "r", 3.5, "fill", Palette.WITH)
                    .title("pair " + p.pair() + ": " + Format.percent(p.percent())).close("circle");
        }
        frame.axisTitle(svg, "pair (run order)");
        return svg.end();
    }
}
