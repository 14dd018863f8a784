package io.perflab.stats;

import static org.junit.jupiter.api.Assertions.fail;

/** Relative comparisons of doubles, treating equal infinities as equal. */
final class Tolerance {

    private Tolerance() {
    }

    static void assertRelative(double expected, double actual, double relative, String what) {
        if (expected == actual) {
            return;
        }
        if (Double.isInfinite(expected) || Double.isNaN(actual)) {
            fail(what + ": expected " + expected + " but was " + actual);
        }
        double error = Math.abs(actual - expected) / Math.max(Math.abs(expected), Double.MIN_NORMAL);
        if (error > relative) {
            fail(what + ": expected " + expected + " but was " + actual + " (relative error " + error + " > "
                    + relative + ")");
        }
    }

    static void assertAbsolute(double expected, double actual, double absolute, String what) {
        if (expected == actual) {
            return;
        }
        if (Double.isInfinite(expected) || Math.abs(actual - expected) > absolute) {
            fail(what + ": expected " + expected + " but was " + actual + " (tolerance " + absolute + ")");
        }
    }
}
