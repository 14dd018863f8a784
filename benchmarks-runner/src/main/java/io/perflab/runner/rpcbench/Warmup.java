package io.perflab.runner.rpcbench;

import com.fasterxml.jackson.annotation.JsonValue;
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
 * <p>A fixed warmup runs the workload for a set time. An {@code auto} warmup runs it in one-second steps, each
 * metered as a measured window is, until the JVM has stopped changing its code: over the last {@value #QUIET_STEPS}
 * steps the JIT's compiler threads used at most {@value #QUIET_JIT_MILLIS_PER_SECOND} ms of CPU a second on average
 * and at most {@value #QUIET_JIT_MILLIS_IN_A_STEP} ms in any one step (where their CPU cannot be read, the JVM
 * compiled for at most that long), capped by {@code max}. The compiler is what makes a JVM's own figures trend: on a
 * 2-vCPU guest user CPU per call fell 1.9–4.7 % more than system CPU from a trial's first window to its last after
 * 15 s of warmup and not measurably after 40 s, and the compiler's CPU in the warmup's last second was 17 ms (median)
 * at 15 s and 2 ms at 40 s (docs/PERFORMANCE.md, "A warmup that ends when the compiler is done"). The figures
 * themselves cannot decide it on
 * such a machine: one second's CPU per call moves 5–10 % with the host, far more than the trend, and the rule this
 * one replaced (three steps' calls/s and CPU per call within 2 %) was met by 3 of 768 trials. Comparing one stack
 * mid-JIT with another at steady state would measure the JIT, not the stack (DESIGN, "Measuring fairly"). The trial
 * records the last steps' compiler work, calls/s and CPU per call as {@code warmup_evidence}.
 *
 * <p>In JSON a warmup is a number of seconds or the text {@code "auto"} / {@code "auto:MAX"}.
 *
 * @param auto whether to warm up until steady
 * @param duration the fixed warmup, or the cap of an auto warmup; at most {@link #MAX}
 */
@JsonDeserialize(using = Warmup.Reader.class)
public record Warmup(boolean auto, Duration duration) {

    /** One-second steps over which the compiler must have been quiet for an auto warmup to end. */
    public static final int QUIET_STEPS = 5;
    /** The compiler threads' largest mean CPU per step over those steps, ms. */
    public static final long QUIET_JIT_MILLIS_PER_SECOND = 5;
    /** The compiler threads' largest CPU in any one of those steps, ms. */
    public static final long QUIET_JIT_MILLIS_IN_A_STEP = 10;
    /** The cap of {@code auto} without an explicit one. */
    public static final Duration DEFAULT_AUTO_MAX = Duration.ofSeconds(30);
    /** The longest warmup, fixed or capped: ten minutes. */
    public static final Duration MAX = Duration.ofMinutes(10);

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
        Duration duration;
        try {
            duration = Seconds.parse(auto ? t.substring(5) : t);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("must be a number of seconds ≥ 0, 'auto' or 'auto:MAX', got '"
                    + text + "'");
        }
        return new Warmup(auto, duration);
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
                    return fixed(Seconds.of(parser.getDecimalValue()));
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
