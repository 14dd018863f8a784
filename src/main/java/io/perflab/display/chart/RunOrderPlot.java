package io.perflab.display.chart;

import io.perflab.display.Format;
import io.perflab.runner.experiment.VariantName;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Each run's value of one metric against the run's position in the plan, coloured and shaped by variant, each
 * variant's runs joined by a faint line: a trend shows drift or warm-up, a step shows something that changed on
 * the machine. At most {@link BoxPlot#MAX_POINTS} runs per variant are drawn: of more, every k-th in plan order,
 * which keeps a trend visible; the description says how many.
 */
public final class RunOrderPlot {

    private static final double WIDTH = 420;
    private static final double HEIGHT = 280;

    private RunOrderPlot() {
    }

    /** One run's value. */
    public record Point(int ordinal, VariantName variant, double value) {
    }

    /** The plot of {@code metric} (in {@code unit}) over {@code points}, in plan order. */
    public static String draw(String id, String metric, String unit, List<Point> points) {
        Frame frame = new Frame(WIDTH, HEIGHT, 72, 14, 30, 40);
        Scale y = Scale.covering(points.stream().mapToDouble(Point::value).toArray(), frame.bottom(), frame.top());
        int lastOrdinal = Math.max(1, points.stream().mapToInt(Point::ordinal).max().orElse(1));
        Scale x = new Scale(0, lastOrdinal, frame.left() + 6, frame.right() - 6);
        List<List<Point>> drawn = List.of(thinned(points, VariantName.WITHOUT), thinned(points, VariantName.WITH));
        int shown = drawn.get(0).size() + drawn.get(1).size();
        Svg svg = Svg.chart(id, WIDTH, HEIGHT, metric + ": value by run order",
                "Each run's " + metric + " against its position in the plan, " + points.size() + " runs"
                        + (shown < points.size() ? " (" + shown + " drawn: every k-th run of each variant)" : "")
                        + "; blue circles are without, orange squares are with. A trend shows drift or warm-up.");
        frame.valueAxis(svg, y, Format.metricWithUnit(metric, unit));
        for (double tick : Scale.ticks(0, lastOrdinal, 6, true)) {
            double tx = x.at(tick);
            svg.line(tx, frame.bottom(), tx, frame.bottom() + 4, "stroke", Palette.AXIS);
            svg.label(tx, frame.bottom() + 15, Long.toString((long) tick), "text-anchor", "middle");
        }
        for (List<Point> mine : drawn) {
            if (mine.size() > 1) {
                StringBuilder line = new StringBuilder();
                mine.forEach(p -> line.append(Svg.number(x.at(p.ordinal()))).append(',')
                        .append(Svg.number(y.at(p.value()))).append(' '));
                svg.leaf("polyline", "fill", "none", "stroke", Palette.of(mine.get(0).variant()),
                        "stroke-opacity", "0.45", "points", line.toString().strip());
            }
            for (Point p : mine) {
                Palette.mark(svg, p.variant(), x.at(p.ordinal()), y.at(p.value()),
                        "run " + p.ordinal() + ", " + p.variant().label() + ": " + Format.value(p.value()));
            }
        }
        frame.legend(svg);
        frame.axisTitle(svg, "run (position in plan order)");
        return svg.end();
    }

    /** The runs of {@code variant} to draw: all, or every k-th so that at most {@link BoxPlot#MAX_POINTS} remain. */
    static List<Point> thinned(List<Point> points, VariantName variant) {
        List<Point> mine = points.stream().filter(p -> p.variant() == variant).toList();
        int every = (mine.size() + BoxPlot.MAX_POINTS - 1) / BoxPlot.MAX_POINTS;
        return every <= 1 ? mine : IntStream.range(0, mine.size()).filter(i -> i % every == 0)
                .mapToObj(mine::get).toList();
    }
}
