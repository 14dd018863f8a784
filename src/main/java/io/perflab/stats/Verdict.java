package io.perflab.stats;

import java.util.Locale;

/** The outcome of a metric's comparison, judged with the metric's {@link Direction}. */
public enum Verdict {
    /** Significant change in the better direction (Holm-adjusted Welch p &lt; α). */
    IMPROVED,
    /** Significant change in the worse direction. */
    REGRESSED,
    /** Not significant, and TOST shows the change lies within ±margin. */
    UNCHANGED,
    /** Neither: more runs are needed to tell. */
    INCONCLUSIVE;

    /** Lower-case name for JSON and tables: {@code improved}, {@code regressed}, … */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
