package io.perflab.display.chart;

import io.perflab.runner.experiment.VariantName;

/**
 * The charts' colours and marks, one definition for the page and the report. The two variants differ in shape as
 * well as colour (circles for {@code without}, squares for {@code with}), so that they stay apart in print and for
 * readers who do not tell blue from orange; verdicts have the colours of their badges.
 */
final class Palette {

    static final String WITHOUT = "#1f6fb2";
    static final String WITH = "#c2410c";
    static final String GRID = "#e5e7eb";
    static final String AXIS = "#555";
    static final String MUTED = "#6b7280";
    static final String INK = "#111";

    private Palette() {
    }

    static String of(VariantName variant) {
        return variant == VariantName.WITH ? WITH : WITHOUT;
    }

    /**
     * The colour of a verdict: green improved, red regressed, grey unchanged, amber inconclusive (or anything else).
     */
    static String verdict(String verdict) {
        return switch (verdict == null ? "" : verdict) {
            case "improved" -> "#15803d";
            case "regressed" -> "#b91c1c";
            case "unchanged" -> "#4b5563";
            default -> "#b45309";
        };
    }

    /** One sample's mark at (x, y), with {@code tooltip} (its value) unless that is null. */
    static void mark(Svg svg, VariantName variant, double x, double y, String tooltip) {
        String shape = variant == VariantName.WITH ? "rect" : "circle";
        Object[] attributes = variant == VariantName.WITH
                ? new Object[] {"x", x - 3, "y", y - 3, "width", 6, "height", 6, "fill", WITH, "fill-opacity", "0.7"}
                : new Object[] {"cx", x, "cy", y, "r", 3.2, "fill", WITHOUT, "fill-opacity", "0.7"};
        if (tooltip == null) {
            svg.leaf(shape, attributes);
        } else {
            svg.open(shape, attributes).title(tooltip).close(shape);
        }
    }
}
