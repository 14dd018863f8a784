package io.perflab.display;

import io.perflab.stats.Display;
import io.perflab.stats.Power;
import io.perflab.stats.RFormat;
import io.perflab.system.PrintableText;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The display rules of pages, reports and charts for figures that may be missing: {@link Display}'s rules for a
 * number, and a dash for a statistic that could not be computed, never {@code NaN} or {@code null}. Templates
 * reach these through the {@code @fmt} bean; Java code calls them directly.
 */
public final class Format {

    /** What a statistic that could not be computed prints as. */
    public static final String MISSING = "—";

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    private Format() {
    }

    /** A measured value with 4 significant digits: {@code 18.15}, {@code 5.2e+04}. */
    public static String value(Double v) {
        return v == null ? MISSING : Display.value(v).strip();
    }

    /** A signed change in percent: {@code -6.48%}. */
    public static String percent(Double v) {
        return v == null ? MISSING : Display.percent(v);
    }

    /** An interval of a change in percent; a missing bound is an unbounded one (Fieller): {@code [-8.56%, +inf%]}. */
    public static String percentInterval(Double low, Double high) {
        if (low == null && high == null) {
            return MISSING;
        }
        return Display.percentInterval(low == null ? Double.NEGATIVE_INFINITY : low,
                high == null ? Double.POSITIVE_INFINITY : high);
    }

    /** An interval of values: {@code [-1.93, -0.43]}. */
    public static String interval(Double low, Double high) {
        return low == null || high == null ? MISSING : "[" + value(low) + ", " + value(high) + "]";
    }

    /** A p-value as R's {@code format.pval}: {@code 0.8176}, {@code 3.081e-08}, {@code < 2.2e-16}. */
    public static String pValue(Double p) {
        return p == null ? MISSING : Display.pValue(p).strip();
    }

    /** A test statistic or degrees of freedom as R's {@code print.htest} shows them: 5 significant digits. */
    public static String statistic(Double v) {
        return v == null ? MISSING : RFormat.format(v, 5).strip();
    }

    /** The smallest detectable change, in percent of the baseline, either way: {@code ±1.23%}. */
    public static String detectable(Double percent) {
        return percent == null ? MISSING : "±" + Display.percent(Math.abs(percent)).substring(1);
    }

    /**
     * The windows per pair for a next run as long as this one, with what it would detect, beside this run's design and
     * Kalibera and Jones's m*: {@code 6 × 5 pairs, ±3.21% (this run's 3 per pair: ±3.48%); m* = ∞}, or
     * {@code 3 × 8 pairs, ±3.48%, as this run; m* = 5.94}; when the between-pairs variance was estimated below 0,
     * it says so after m*.
     *
     * @param optimum m*, null or infinite when the pairs differ no more than their windows do
     * @param betweenClamped whether the between-pairs variance was estimated below 0 and taken as 0
     */
    public static String nextRun(int windowsPerPair, long pairs, double mdePercent, int thisWindowsPerPair,
                                 double thisMdePercent, Double optimum, boolean betweenClamped) {
        String design = windowsPerPair + " × " + count(pairs, "pair", "pairs") + ", " + detectable(mdePercent);
        String beside = windowsPerPair == thisWindowsPerPair ? ", as this run"
                : " (this run's " + thisWindowsPerPair + " per pair: " + detectable(thisMdePercent) + ")";
        String kj = optimum == null || Double.isInfinite(optimum) ? "∞" : Display.value(optimum).strip();
        return design + beside + "; m* = " + kj
                + (betweenClamped ? " (the between-pairs variance was estimated below 0 and taken as 0)" : "");
    }

    /** Runs per variant, with thousands separators; beyond what power analysis searches, a bound. */
    public static String runs(Long n) {
        if (n == null) {
            return MISSING;
        }
        return n >= Power.MAX_RUNS ? "> " + count(Power.MAX_RUNS) : count(n);
    }

    /** A count with thousands separators: {@code 3,000}. */
    public static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** {@code n} and the noun, singular or plural: {@code 1 metric}, {@code 3,000 metrics}. */
    public static String count(long n, String singular, String plural) {
        return count(n) + " " + (n == 1 ? singular : plural);
    }

    /** A metric with its unit: {@code user_cpu_us_per_req (us)}. */
    public static String metricWithUnit(String metric, String unit) {
        return unit == null || unit.isBlank() ? metric : metric + " (" + unit + ")";
    }

    /**
     * Text a person typed, between FIRST STRONG ISOLATE (U+2068) and POP DIRECTIONAL ISOLATE (U+2069), for plain text
     * that no element can isolate: a page's {@code <title>}. A right-to-left name then reorders only itself, never
     * the words around it (in a page's body the stylesheet isolates inline elements instead). Names with
     * bidirectional controls are refused on the way in ({@code PrintableText}); this keeps the order of a title
     * right for names stored before that, and for names in a right-to-left script. Null prints as {@link #MISSING}.
     */
    public static String isolated(String text) {
        return text == null ? MISSING : "\u2068" + text + "\u2069";
    }

    /**
     * Text a program wrote (a trial's error with its command's last output, an experiment's error) for a
     * {@code <pre>}: line breaks and tabs kept, every other control character (an ANSI colour code's ESC, a bell)
     * and every character that hides or reorders text (a right-to-left override) shown as {@code ?}. The stored text
     * keeps them, for the API and the exports. Null stays null.
     */
    public static String block(String text) {
        return text == null ? null : PrintableText.Validator.replaced(text.replace("\r\n", "\n"), '?', "\n\t");
    }

    /** A point in time, to the second, in UTC: {@code 2024-03-05 10:00:00 UTC}. */
    public static String time(Instant instant) {
        return instant == null ? MISSING : TIME.format(instant);
    }
}
