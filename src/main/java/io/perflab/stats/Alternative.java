package io.perflab.stats;

import java.util.Locale;

/** The alternative hypothesis of a test about the difference {@code with − without}, named as in R. */
public enum Alternative {
    /** The difference is not zero ({@code "two.sided"} in R). */
    TWO_SIDED("two.sided", "not equal to"),
    /** The difference is below zero: {@code with} is smaller. */
    LESS("less", "less than"),
    /** The difference is above zero: {@code with} is larger. */
    GREATER("greater", "greater than");

    private final String rName;
    private final String phrase;

    Alternative(String rName, String phrase) {
        this.rName = rName;
        this.phrase = phrase;
    }

    /** R's spelling: {@code two.sided}, {@code less}, {@code greater}. */
    public String rName() {
        return rName;
    }

    /** The words R prints after "true difference in means is": e.g. {@code not equal to}. */
    public String phrase() {
        return phrase;
    }

    /**
     * Parses {@code two-sided}, {@code two.sided}, {@code two_sided}, {@code less} or {@code greater} (any case).
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    public static Alternative parse(String text) {
        String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT).replace('-', '.').replace('_', '.');
        for (Alternative a : values()) {
            if (a.rName.equals(t)) {
                return a;
            }
        }
        throw new IllegalArgumentException(
                "unknown alternative '" + text + "': use two-sided, two.sided, less or greater");
    }
}
