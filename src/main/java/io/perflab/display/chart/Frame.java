package io.perflab.display.chart;

import io.perflab.display.Format;
import io.perflab.runner.experiment.VariantName;
import io.perflab.system.Texts;

/**
 * A chart's plot area inside its margins, and the furniture drawn around it: the value axis with its grid, the
 * axis titles and the variants' legend.
 */
record Frame(double width, double height, double left, double rightMargin, double top, double bottomMargin) {

    double right() {
        return width - rightMargin;
    }

    double bottom() {
        return height - bottomMargin;
    }

    double plotWidth() {
        return right() - left;
    }

    /** The vertical axis with grid lines at "nice" values, the horizontal base line, and the axis title. */
    void valueAxis(Svg svg, Scale y, String title) {
        for (double tick : Scale.ticks(y.lo(), y.hi(), 6, false)) {
            double ty = y.at(tick);
            svg.line(left, ty, right(), ty, "stroke", Palette.GRID);
            svg.label(left - 6, ty + 4, Format.value(tick), "text-anchor", "end");
        }
        svg.line(left, top, left, bottom(), "stroke", Palette.AXIS);
        svg.line(left, bottom(), right(), bottom(), "stroke", Palette.AXIS);
        double cy = (top + bottom()) / 2;
        svg.label(0, 0, Texts.cut(title, 40), "transform", "translate(14," + Svg.number(cy) + ") rotate(-90)",
                "text-anchor", "middle", "font-weight", "600");
    }

    /** The title under the horizontal axis. */
    void axisTitle(Svg svg, String title) {
        svg.label((left + right()) / 2, height - 8, title, "text-anchor", "middle", "font-weight", "600");
    }

    /** Which mark and colour is which variant, above the plot area. */
    void legend(Svg svg) {
        double x = left + 8;
        for (VariantName variant : VariantName.values()) {
            Palette.mark(svg, variant, x, 10, variant.label());
            svg.label(x + 8, 14, variant.label());
            x += 80;
        }
    }
}
