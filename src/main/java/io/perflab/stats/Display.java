package io.perflab.stats;

import java.util.Locale;

/**
 * How numbers of a comparison are written for people — in verdict reasons, warnings, the CLI table and
 * reports — so that every face prints a p-value or a change the same way.
 */
public final class Display {

    private Display() {
    }

    /** A p-value as R's {@code format.pval(p, digits = 4)}: {@code 0.8176}, {@code 3.081e-08}, {@code < 2.2e-16}. */
    public static String pValue(double p) {
        return RFormat.formatPValue(p, 4);
    }

    /** "p = 0.03" or "p < 2.2e-16". */
    public static String pEquals(double p) {
        String text = pValue(p);
        return text.startsWith("<") ? "p " + text : "p = " + text;
    }

    /** A signed percentage with two decimals, {@code +6.93%}; unbounded ends print as {@code -inf%}/{@code +inf%}. */
    public static String percent(double value) {
        if (Double.isInfinite(value)) {
            return value > 0 ? "+inf%" : "-inf%";
        }
        if (Math.abs(value) >= 1e6) { // an interval that still spans anything: short, not 180 digits
            return String.format(Locale.ROOT, "%+.3g%%", value);
        }
        return String.format(Locale.ROOT, "%+.2f%%", value);
    }

    /** An interval of percentages: {@code [-9.10%, -4.30%]}. */
    public static String percentInterval(double low, double high) {
        return "[" + percent(low) + ", " + percent(high) + "]";
    }

    /** A measured value with 4 significant digits, as R would print it at {@code digits = 4}. */
    public static String value(double v) {
        return RFormat.format(v, 4);
    }

    /** A confidence level as a percentage: {@code 95%}. */
    public static String level(double confidenceLevel) {
        return RFormat.format(100 * confidenceLevel, 7).strip() + "%";
    }
}
