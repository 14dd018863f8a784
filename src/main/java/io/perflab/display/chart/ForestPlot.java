package io.perflab.display.chart;

import io.perflab.display.Format;
import io.perflab.system.Texts;
import java.util.ArrayList;
import java.util.List;

/**
 * Each metric's change in percent of the baseline mean (of its absolute value when it is negative, so that the
 * change has the sign of the difference, as {@link io.perflab.stats.RelativeChange} gives it) with its confidence
 * interval, against no change and the equivalence margin: the experiment at a glance.
 *
 * <p>The axis is 1 + Δ %/100 — the ratio of means, mean(with)/mean(without), for a positive baseline — on a log
 * scale, labelled as changes in percent:
 * halving and doubling lie equally far from 0, as they should for a ratio. Its range covers the focus rows (the
 * headline metrics; every row when none is one) and at least twice the equivalence margin, and never more than
 * from −50 % to +100 % (a ratio of ½ to 2). An interval that reaches beyond the axis ends in an arrow at its edge,
 * a point beyond it is an arrowhead, and every row prints its change and verdict beside the plot: so a ±5 % change
 * of a headline metric stays readable beside a +2,300 % latency outlier, and the outlier is still there.
 */
public final class ForestPlot {

    /** The largest ratio either way that the axis shows: ½ to 2. */
    static final double MAX_RATIO = 2;

    private static final double WIDTH = 760;
    private static final double ROW_HEIGHT = 22;
    private static final double[] TICK_LEVELS = {0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100};
    private static final int MAX_TICKS = 9;
    /** Pixels between neighbouring ticks, so that their labels ({@code +0.50%}) do not overlap. */
    private static final double MIN_TICK_GAP = 44;

    private ForestPlot() {
    }

    /**
     * One metric's row.
     *
     * @param percent the change in percent of the baseline mean; null when it could not be computed
     * @param low the interval's lower bound; null when unbounded
     * @param high the interval's upper bound; null when unbounded
     * @param focus whether the axis must show this row whole (a headline metric)
     */
    public record Row(String metric, Double percent, Double low, Double high, String verdict, boolean focus) {
    }

    /** The plot of {@code rows}, top to bottom, with the margin in percent and the level as text ({@code 95%}). */
    public static String draw(String id, List<Row> rows, double marginPercent, String levelText) {
        return draw(id, rows, marginPercent, levelText, "Fieller");
    }

    /**
     * As {@link #draw(String, List, double, String)}, naming how the intervals were obtained: {@code Fieller} for
     * a ratio of means, or the paired design's t interval over its pairs.
     */
    public static String draw(String id, List<Row> rows, double marginPercent, String levelText, String method) {
        double height = 64 + ROW_HEIGHT * Math.max(1, rows.size());
        Frame frame = new Frame(WIDTH, height, 210, 170, 14, 46);
        Scale x = axis(rows, marginPercent, frame);
        StringBuilder desc = new StringBuilder("Change of each metric's mean in percent of the without mean, with its ")
                .append(levelText).append(" confidence interval, on a log-ratio scale: ");
        rows.forEach(r -> desc.append(r.metric()).append(' ').append(Format.percent(r.percent())).append(' ')
                .append(Format.percentInterval(r.low(), r.high())).append(' ').append(r.verdict()).append("; "));
        Svg svg = Svg.chart(id, WIDTH, height, "Change of every metric in percent, with confidence intervals",
                desc.toString().strip());
        for (double tick : ticks(x)) {
            double tx = x.at(ratio(tick));
            svg.line(tx, frame.top(), tx, frame.bottom(), "stroke", Palette.GRID);
            svg.label(tx, frame.bottom() + 15, tick == 0 ? "0" : Format.percent(tick).replace(".00", ""),
                    "text-anchor", "middle");
        }
        for (double m : new double[] {-marginPercent, marginPercent}) {
            double mx = x.at(ratio(m));
            svg.open("line", "x1", mx, "y1", frame.top(), "x2", mx, "y2", frame.bottom(), "stroke", Palette.MUTED,
                    "stroke-dasharray", "4 3").title("equivalence margin " + Format.percent(m)).close("line");
        }
        svg.line(x.at(0), frame.top(), x.at(0), frame.bottom(), "stroke", Palette.INK);
        svg.line(frame.left(), frame.bottom(), frame.right(), frame.bottom(), "stroke", Palette.AXIS);
        for (int i = 0; i < rows.size(); i++) {
            row(svg, rows.get(i), frame.top() + ROW_HEIGHT * (i + 0.5), x, frame);
        }
        frame.axisTitle(svg, "Δ % of the without mean (log-ratio scale), " + levelText + " CI (" + method
                + "); dashed: ±" + Format.value(marginPercent) + " % equivalence margin; ▸ beyond the axis");
        return svg.end();
    }

    private static void row(Svg svg, Row r, double cy, Scale x, Frame frame) {
        svg.open("text", "x", frame.left() - 8, "y", cy + 4, "text-anchor", "end")
                .text(Texts.cut(r.metric(), 30)).title(r.metric()).close("text");
        String colour = Palette.verdict(r.verdict());
        if (r.percent() == null) {
            svg.label(x.at(0) + 6, cy + 4, "not comparable", "fill", Palette.MUTED);
            svg.label(frame.right() + 10, cy + 4, r.verdict(), "fill", colour);
            return;
        }
        double low = r.low() == null ? Double.NEGATIVE_INFINITY : ratio(r.low());
        double high = r.high() == null ? Double.POSITIVE_INFINITY : ratio(r.high());
        double xl = x.at(x.clip(low));
        double xh = x.at(x.clip(high));
        svg.line(xl, cy, xh, cy, "stroke", colour, "stroke-width", 2);
        end(svg, xl, cy, low < x.lo() ? -1 : 0, colour);
        end(svg, xh, cy, high > x.hi() ? 1 : 0, colour);
        double point = ratio(r.percent());
        String tooltip = r.metric() + ": " + Format.percent(r.percent()) + " "
                + Format.percentInterval(r.low(), r.high());
        if (point < x.lo() || point > x.hi()) {
            double px = x.at(x.clip(point));
            int side = point < x.lo() ? -1 : 1;
            svg.open("path", "d", "M" + Svg.number(px + 8 * side) + "," + Svg.number(cy) + " l" + (-9 * side)
                    + ",-6 l0,12 z", "fill", colour).title(tooltip + " (beyond the axis)").close("path");
        } else {
            svg.open("circle", "cx", x.at(point), "cy", cy, "r", 4.5, "fill", colour).title(tooltip).close("circle");
        }
        svg.label(frame.right() + 10, cy + 4, Format.percent(r.percent()) + " " + r.verdict(), "fill", colour);
    }

    /** An interval's end: a bar across it, or an arrow when the interval goes on beyond the axis ({@code side} ±1). */
    private static void end(Svg svg, double x, double cy, int side, String colour) {
        if (side == 0) {
            svg.line(x, cy - 5, x, cy + 5, "stroke", colour, "stroke-width", 2);
        } else {
            svg.leaf("path", "d", "M" + Svg.number(x + 4 * side) + "," + Svg.number(cy) + " l" + (-7 * side)
                    + ",-5 l0,10 z", "fill", colour);
        }
    }

    /** The axis: log ratios covering the focus rows and twice the margin, at most ½ to 2, padded by 6 %. */
    static Scale axis(List<Row> rows, double marginPercent, Frame frame) {
        List<Row> focus = rows.stream().filter(Row::focus).toList();
        double lo = ratio(-2 * marginPercent);
        double hi = ratio(2 * marginPercent);
        List<Double> values = new ArrayList<>();
        for (Row r : focus.isEmpty() ? rows : focus) {
            for (Double v : new Double[] {r.percent(), r.low(), r.high()}) {
                if (v != null && v > -100) {
                    values.add(ratio(v));
                }
            }
        }
        for (double v : values) {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        lo = Math.max(lo, -Math.log(MAX_RATIO));
        hi = Math.min(hi, Math.log(MAX_RATIO));
        double pad = (hi - lo) * 0.06;
        return new Scale(lo - pad, hi + pad, frame.left(), frame.right());
    }

    /** The log of the ratio of means that a change of {@code percent} is; −∞ for −100 % and below. */
    static double ratio(double percent) {
        return percent <= -100 ? Double.NEGATIVE_INFINITY : Math.log1p(percent / 100);
    }

    /**
     * Ticks at 0 and at ±0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50 and +100 %, inside the axis: the finest levels that
     * give at most {@value #MAX_TICKS} ticks, {@value #MIN_TICK_GAP} pixels apart or more.
     */
    static List<Double> ticks(Scale x) {
        for (int finest = 0; finest < TICK_LEVELS.length; finest++) {
            List<Double> ticks = new ArrayList<>();
            for (int i = TICK_LEVELS.length - 1; i >= finest; i--) {
                if (TICK_LEVELS[i] < 100) {
                    ticks.add(-TICK_LEVELS[i]);
                }
            }
            ticks.add(0.0);
            for (int i = finest; i < TICK_LEVELS.length; i++) {
                ticks.add(TICK_LEVELS[i]);
            }
            List<Double> inside = ticks.stream().filter(t -> ratio(t) >= x.lo() && ratio(t) <= x.hi()).toList();
            boolean apart = true;
            for (int i = 1; i < inside.size(); i++) {
                apart &= x.at(ratio(inside.get(i))) - x.at(ratio(inside.get(i - 1))) >= MIN_TICK_GAP;
            }
            if (inside.size() <= MAX_TICKS && apart) {
                return inside;
            }
        }
        return List.of(0.0);
    }
}
