package io.perflab.report;

import io.perflab.stats.Display;
import io.perflab.stats.RFormat;

/**
 * The statistics package's display rules ({@link Display}) for values that may be missing: a statistic that
 * could not be computed prints as a dash, never as {@code NaN} or {@code null}.
 */
final class ReportFormat {

    static final String MISSING = "—";

    private ReportFormat() {
    }

    static String value(Double v) {
        return v == null ? MISSING : Display.value(v).strip();
    }

    static String percent(Double v) {
        return v == null ? MISSING : Display.percent(v);
    }

    /** A confidence interval of a change in percent; a missing bound means the interval is unbounded (Fieller). */
    static String percentInterval(Double low, Double high) {
        if (low == null && high == null) {
            return MISSING;
        }
        return Display.percentInterval(low == null ? Double.NEGATIVE_INFINITY : low,
                high == null ? Double.POSITIVE_INFINITY : high);
    }

    static String interval(Double low, Double high) {
        if (low == null || high == null) {
            return MISSING;
        }
        return "[" + value(low) + ", " + value(high) + "]";
    }

    static String pValue(Double p) {
        return p == null ? MISSING : Display.pValue(p).strip();
    }

    /** A test statistic or degrees of freedom as R's {@code print.htest} shows them: 5 significant digits. */
    static String statistic(Double v) {
        return v == null ? MISSING : RFormat.format(v, 5).strip();
    }

    static String count(Long n) {
        return n == null ? MISSING : Long.toString(n);
    }

    /** A metric with its unit: {@code user_cpu_us_per_req (us)}. */
    static String metricWithUnit(String metric, String unit) {
        return unit == null || unit.isBlank() ? metric : metric + " (" + unit + ")";
    }
}
