package io.perflab.runner.rpcbench;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Pattern;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.ValueSerializer;

/**
 * Durations as users write them: a decimal number of seconds ({@code 2}, {@code 0.5}). Every value is bounded
 * while it is still a decimal, before it becomes nanoseconds, so that nothing can wrap round.
 */
public final class Seconds {

    /** The longest duration any setting takes: one day. */
    public static final BigDecimal MAX = BigDecimal.valueOf(86_400);

    private static final Pattern NUMBER = Pattern.compile("-?[0-9]+(\\.[0-9]*)?([eE][-+]?[0-9]{1,3})?"
            + "|-?\\.[0-9]+([eE][-+]?[0-9]{1,3})?");

    private Seconds() {
    }

    /**
     * {@code seconds} as a duration, to the nanosecond.
     *
     * @throws IllegalArgumentException if it is negative or longer than {@link #MAX}
     */
    public static Duration of(BigDecimal seconds) {
        return of(seconds, MAX);
    }

    /**
     * {@code seconds} as a duration, to the nanosecond, checked against a setting's own bound.
     *
     * @param max the longest the setting takes, in seconds; at most {@link #MAX}
     * @throws IllegalArgumentException if it is negative or longer than {@code max}
     */
    public static Duration of(BigDecimal seconds, BigDecimal max) {
        if (seconds.signum() < 0) {
            throw new IllegalArgumentException("must not be negative, got " + shown(seconds));
        }
        if (seconds.compareTo(max.min(MAX)) > 0) {
            throw new IllegalArgumentException("must be at most " + max.min(MAX).toPlainString() + " s, got "
                    + shown(seconds));
        }
        return Duration.ofNanos(seconds.movePointRight(9).longValue());
    }

    /**
     * As written when short (18446744074.709551616); with an exponent when its digits would not fit a line (1E+400).
     */
    private static String shown(BigDecimal seconds) {
        String plain = seconds.toPlainString();
        return plain.length() <= 40 ? plain : seconds.toString();
    }

    /**
     * Parses a plain decimal number of seconds: digits with an optional fraction and exponent; no sign but
     * {@code -}, no hexadecimal, no {@code NaN}.
     *
     * @throws IllegalArgumentException saying what was wrong
     */
    public static Duration parse(String text) {
        return of(number(text));
    }

    /**
     * As {@link #parse(String)}, for a setting whose own bound {@code max} is checked first.
     *
     * @throws IllegalArgumentException saying what was wrong: not a number, negative, more than {@code max}
     */
    public static Duration parse(String text, BigDecimal max) {
        return of(number(text), max);
    }

    /**
     * The number of seconds {@code text} says, exactly as written ({@code 5000} stays 5000), for a caller that
     * checks the setting's bounds itself before the number becomes a duration.
     *
     * @throws IllegalArgumentException if it is no plain decimal number (see {@link #parse}) or is negative
     */
    public static BigDecimal number(String text) {
        if (!isNumber(text)) {
            throw new IllegalArgumentException("must be a number of seconds, got '" + text + "'");
        }
        BigDecimal seconds = new BigDecimal(text.strip());
        if (seconds.signum() < 0) {
            throw new IllegalArgumentException("must not be negative, got " + shown(seconds));
        }
        return seconds;
    }

    /** Whether {@code text} is a number {@link #parse} reads, whatever its bounds. */
    public static boolean isNumber(String text) {
        return NUMBER.matcher(text.strip()).matches();
    }

    /** {@code duration} as {@link #parse} reads it: {@code 5}, {@code 0.25}. */
    public static String format(Duration duration) {
        return decimal(duration).toPlainString();
    }

    /** {@code duration} in seconds, exactly. */
    public static BigDecimal decimal(Duration duration) {
        return BigDecimal.valueOf(duration.toNanos(), 9).stripTrailingZeros();
    }

    /** Writes a duration as its number of seconds. */
    public static final class Writer extends ValueSerializer<Duration> {
        @Override
        public void serialize(Duration value, JsonGenerator gen, SerializationContext context) {
            gen.writeNumber(decimal(value));
        }
    }

    /** Reads a number of seconds: a JSON number, never a string or a boolean. */
    public static final class Reader extends ValueDeserializer<Duration> {
        @Override
        public Duration deserialize(JsonParser parser, DeserializationContext context) {
            if (!parser.currentToken().isNumeric()) {
                return context.reportInputMismatch(Duration.class, "must be a number of seconds");
            }
            try {
                return of(parser.getDecimalValue());
            } catch (IllegalArgumentException e) {
                return context.reportInputMismatch(Duration.class, e.getMessage());
            }
        }
    }
}
