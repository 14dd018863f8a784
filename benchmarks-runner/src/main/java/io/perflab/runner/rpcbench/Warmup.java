package io.perflab.runner.rpcbench;

import com.fasterxml.jackson.annotation.JsonValue;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * How long a trial warms up before its measured window.
 *
 * <p>A fixed warmup runs the workload for a set time. An {@code auto} warmup runs it in one-second windows, each
 * metered as a measured window is, until its figures stop trending: over the last {@value #SETTLED_WINDOWS}
 * windows both the calls per second and the CPU time per call lie within {@value #SETTLED_SPREAD_PERCENT} % of
 * their mean (max − min ≤ 2 % of the mean) and the JIT compiled for at most 10 ms in the last of them, capped by
 * {@code max}. Throughput alone is not enough: on a saturated CPU it can hold still while the cost of a call still
 * moves. Comparing one stack mid-JIT with another at steady state would measure the JIT, not the stack (DESIGN,
 * "Measuring fairly"). The trial records the last windows' figures as {@code warmup_evidence}.
 *
 * <p>In JSON a warmup is a number of seconds or the text {@code "auto"} / {@code "auto:MAX"}.
 *
 * @param auto whether to warm up until steady
 * @param duration the fixed warmup, or the cap of an auto warmup; at most {@link #MAX}
 */
@JsonDeserialize(using = Warmup.Reader.class)
public record Warmup(boolean auto, Duration duration) {

    /** Consecutive one-second windows that must agree for an auto warmup to end. */
    public static final int SETTLED_WINDOWS = 3;
    /** Largest spread of those windows, in percent of their mean. */
    public static final double SETTLED_SPREAD_PERCENT = 2.0;
    /** The cap of {@code auto} without an explicit one. */
    public static final Duration DEFAULT_AUTO_MAX = Duration.ofSeconds(30);
    /** The longest warmup, fixed or capped: ten minutes. */
    public static final Duration MAX = Duration.ofMinutes(10);
    private static final BigDecimal MAX_SECONDS = BigDecimal.valueOf(MAX.toSeconds());

    public Warmup {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("must not be negative, got " + Seconds.format(duration));
        }
        if (duration.compareTo(MAX) > 0) {
            throw new IllegalArgumentException("must be at most " + MAX.toSeconds() + " s, got "
                    + Seconds.format(duration));
        }
    }

    public static Warmup fixed(Duration duration) {
        return new Warmup(false, duration);
    }

    public static Warmup auto(Duration max) {
        return new Warmup(true, max);
    }

    /**
     * Parses {@code 5}, {@code 0.5}, {@code auto} or {@code auto:20} (auto with a 20-second cap).
     *
     * @throws IllegalArgumentException saying which forms are accepted
     */
    public static Warmup parse(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        boolean auto = t.equals("auto") || t.startsWith("auto:");
        if (t.equals("auto")) {
            return auto(DEFAULT_AUTO_MAX);
        }
        String seconds = auto ? t.substring(5) : t;
        if (!Seconds.isNumber(seconds) || seconds.startsWith("-")) {
            throw new IllegalArgumentException("must be a number of seconds ≥ 0, 'auto' or 'auto:MAX', got '"
                    + text + "'");
        }
        return new Warmup(auto, Seconds.parse(seconds, MAX_SECONDS));
    }

    /** The form {@link #parse} reads. */
    @JsonValue
    @Override
    public String toString() {
        return auto ? "auto:" + Seconds.format(duration) : Seconds.format(duration);
    }

    /** Reads a number of seconds or one of the texts {@link #parse} takes. */
    static final class Reader extends ValueDeserializer<Warmup> {
        @Override
        public Warmup deserialize(JsonParser parser, DeserializationContext context) {
            JsonToken token = parser.currentToken();
            try {
                if (token.isNumeric()) {
                    return fixed(Seconds.of(parser.getDecimalValue(), MAX_SECONDS));
                }
                if (token == JsonToken.VALUE_STRING) {
                    return parse(parser.getString());
                }
            } catch (IllegalArgumentException e) {
                return context.reportInputMismatch(Warmup.class, e.getMessage());
            }
            return context.reportInputMismatch(Warmup.class,
                    "must be a number of seconds ≥ 0, 'auto' or 'auto:MAX'");
        }
    }
}
