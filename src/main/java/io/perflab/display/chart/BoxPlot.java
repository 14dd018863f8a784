package io.perflab.display.chart;

import io.perflab.display.Format;
import io.perflab.runner.experiment.VariantName;
import java.util.Arrays;
import java.util.stream.DoubleStream;

/**
 * The samples of one metric, per variant: a box plot with each sample drawn over it as a dot (a strip plot),
 * {@code without} on the left and {@code with} on the right, each labelled with its name and size. The box spans
 * the first to the third quartile (R's type 7, as {@link io.perflab.stats.Summary}) with the median across it;
 * the whiskers reach the most extreme samples within 1.5 IQR of the box (Tukey), so the dots beyond them are the
 * outliers; a diamond marks the mean.
 *
 * <p>At most {@link #MAX_POINTS} dots per variant besides the outliers: a larger sample is drawn at evenly spaced
 * ranks (its smallest and largest value included), which keeps the shape of its distribution; the box and the
 * mean are always computed from every sample, and the description says how many were drawn.
 */
public final class BoxPlot {

    /** The most dots drawn per variant, not counting outliers. */
    public static final int MAX_POINTS = 100;

    private static final double WIDTH = 340;
    private static final double HEIGHT = 280;
    private static final double JITTER = 34;
    private static final double HALF_BOX = 26;

    private BoxPlot() {
    }

    /** The plot of {@code metric} (in {@code unit}) for the two variants' samples. */
    public static String draw(String id, String metric, String unit, double[] without, double[] with) {
        Frame frame = new Frame(WIDTH, HEIGHT, 72, 14, 18, 46);
        Scale y = Scale.covering(DoubleStream.concat(Arrays.stream(without), Arrays.stream(with)).toArray(),
                frame.bottom(), frame.top());
        Svg svg = Svg.chart(id, WIDTH, HEIGHT, metric + ": samples of without and with",
                "Samples of " + Format.metricWithUnit(metric, unit) + " per variant, one dot per sample, over a box "
                        + "from the first to the third quartile with the median, whiskers to the furthest samples "
                        + "within 1.5 IQR; " + describe(VariantName.WITHOUT, without) + "; "
                        + describe(VariantName.WITH, with) + ".");
        frame.valueAxis(svg, y, Format.metricWithUnit(metric, unit));
        double[][] groups = {without, with};
        for (VariantName variant : VariantName.values()) {
            double[] values = groups[variant.ordinal()];
            double cx = frame.left() + frame.plotWidth() * (variant == VariantName.WITHOUT ? 0.27 : 0.73);
            svg.label(cx, frame.bottom() + 16, variant.label() + " (n = " + values.length + ")",
                    "text-anchor", "middle", "fill", Palette.of(variant), "font-weight", "600");
            if (values.length > 0) {
                group(svg, variant, values, cx, y);
            }
        }
        frame.axisTitle(svg, "variant");
        return svg.end();
    }

    private static void group(Svg svg, VariantName variant, double[] values, double cx, Scale y) {
        Tukey box = Tukey.of(values);
        String colour = Palette.of(variant);
        svg.open("g", "stroke", colour, "fill", "none", "stroke-width", "1.5");
        svg.leaf("rect", "x", cx - HALF_BOX, "y", y.at(box.q3()), "width", 2 * HALF_BOX,
                "height", Math.max(1, y.at(box.q1()) - y.at(box.q3())), "fill", colour, "fill-opacity", "0.08");
        svg.line(cx - HALF_BOX, y.at(box.median()), cx + HALF_BOX, y.at(box.median()), "stroke-width", 3);
        whisker(svg, cx, y.at(box.q1()), y.at(box.lowWhisker()));
        whisker(svg, cx, y.at(box.q3()), y.at(box.highWhisker()));
        svg.close("g");
        // Only the outliers name their value: the run-order plot beside this one names every sample's.
        double[] shown = box.thinned(MAX_POINTS);
        for (int i = 0; i < shown.length; i++) {
            Palette.mark(svg, variant, cx + jitter(i), y.at(shown[i]),
                    box.isOutlier(shown[i]) ? variant.label() + ": " + Format.value(shown[i]) + " (outlier)" : null);
        }
        double my = y.at(box.mean());
        svg.open("path", "d", "M" + Svg.number(cx + 30) + "," + Svg.number(my - 5) + " l5,5 l-5,5 l-5,-5 z",
                "fill", "#fff", "stroke", Palette.INK);
        svg.title("mean of " + variant.label() + ": " + Format.value(box.mean())).close("path");
    }

    private static void whisker(Svg svg, double cx, double from, double to) {
        svg.line(cx, from, cx, to);
        svg.line(cx - 10, to, cx + 10, to);
    }

    private static String describe(VariantName variant, double[] values) {
        if (values.length == 0) {
            return variant.label() + ": no samples";
        }
        Tukey box = Tukey.of(values);
        int drawn = box.thinned(MAX_POINTS).length;
        return variant.label() + ": n = " + values.length + ", median " + Format.value(box.median()) + ", quartiles "
                + Format.value(box.q1()) + " to " + Format.value(box.q3()) + ", mean " + Format.value(box.mean())
                + ", " + Format.count(box.outliers(), "outlier", "outliers")
                + (drawn < values.length ? " (" + drawn + " of the samples drawn, at evenly spaced ranks)" : "");
    }

    /** A fixed, evenly spread sideways offset per dot (golden-ratio sequence): the same chart every time. */
    private static double jitter(int i) {
        double fraction = (i * 0.6180339887498949) % 1.0;
        return (fraction - 0.5) * JITTER;
    }
}
