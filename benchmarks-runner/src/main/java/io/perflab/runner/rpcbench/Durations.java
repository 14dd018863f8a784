package io.perflab.runner.rpcbench;

import java.math.BigDecimal;
import java.time.Duration;

/** Seconds as the command line writes them: {@code 2}, {@code 0.5}. */
final class Durations {

    private Durations() {
    }

    /** Parses a non-negative number of seconds; the message names {@code flag}. */
    static Duration parseSeconds(String flag, String text) {
        BigDecimal seconds;
        try {
            seconds = new BigDecimal(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " must be a number of seconds, got '" + text + "'");
        }
        if (seconds.signum() < 0) {
            throw new IllegalArgumentException(flag + " must not be negative, got " + text);
        }
        return Duration.ofNanos(seconds.movePointRight(9).longValue());
    }

    static String formatSeconds(Duration duration) {
        return BigDecimal.valueOf(duration.toNanos(), 9).stripTrailingZeros().toPlainString();
    }
}
