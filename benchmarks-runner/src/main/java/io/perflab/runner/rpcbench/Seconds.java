package io.perflab.runner.rpcbench;

import java.math.BigDecimal;
import java.time.Duration;
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

    private Seconds() {
    }

    /**
     * {@code seconds} as a duration, to the nanosecond.
     *
     * @throws IllegalArgumentException if it is negative or longer than {@link #MAX}
     */
    public static Duration of(BigDecimal seconds) {
        if (seconds.signum() < 0) {
            throw new IllegalArgumentException("must not be negative, got " + shown(seconds));
        }
        if (seconds.compareTo(MAX) > 0) {
            throw new IllegalArgumentException("must be at most " + MAX + " s, got " + shown(seconds));
        }
        return Duration.ofNanos(seconds.movePointRight(9).longValue());
    }

    /** As written when short (18446744074.709551616); with an exponent when its digits would not fit a line (1E+400). */
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
        String t = text.strip();
        if (!t.matches("-?[0-9]+(\\.[0-9]*)?([eE][-+]?[0-9]{1,3})?|-?\\.[0-9]+([eE][-+]?[0-9]{1,3})?")) {
            throw new IllegalArgumentException("must be a number of seconds, got '" + text + "'");
        }
        return of(new BigDecimal(t));
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
