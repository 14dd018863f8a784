package io.perflab.upload;

import java.util.regex.Pattern;

/**
 * The one grammar of numbers in the text formats (CSV, Go benchmark output, rpc-bench reports): a decimal with an
 * optional sign, fraction and exponent — {@code 12}, {@code -0.5}, {@code .5}, {@code 3.}, {@code 1.2e-3},
 * {@code +4E6}. Java's extras ({@code 1d}, {@code 2.5f}, hex such as {@code 0x1p3}, {@code NaN},
 * {@code Infinity}) and thousands separators are not numbers here. {@code perflab compare} reads its files of numbers
 * and its numeric flags by it too.
 */
public final class DecimalNumbers {

    /** The grammar as a regular expression, for finding numbers inside a line. */
    static final String GRAMMAR = "[-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?";

    /** What a double holds, as every message about a number beyond it says it. */
    public static final String DOUBLE_RANGE = "the range of a double (about ±1.8e308)";

    private static final Pattern DECIMAL = Pattern.compile(GRAMMAR);

    private DecimalNumbers() {
    }

    /**
     * The value of {@code text}, or null when it is not a number of this grammar. A number beyond the range of a
     * double gives an infinity, for the caller to refuse naming where it was.
     */
    public static Double parse(String text) {
        return DECIMAL.matcher(text).matches() ? Double.parseDouble(text) : null;
    }

    /**
     * Why the number written {@code text}, which a double cannot hold, is refused: "'1e400' is beyond the range of a
     * double (about ±1.8e308)", for a message to follow where it is (every format says it so).
     */
    public static String beyondRange(String text) {
        return "'" + UploadText.excerpt(text) + "' is beyond " + DOUBLE_RANGE;
    }
}
