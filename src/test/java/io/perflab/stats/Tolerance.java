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

    /**
     * Compares a t-test with R's {@code htest}: {@code expected} starts with statistic, parameter (df), p-value and
     * the two confidence bounds, in that order; all to 1e-12 relative but the p-value, to {@code pRelative}.
     */
    static void assertTTest(double[] expected, TTestResult r, double pRelative, String what) {
        assertRelative(expected[0], r.t(), 1e-12, what + " t");
        assertRelative(expected[1], r.df(), 1e-12, what + " df");
        assertRelative(expected[2], r.pValue(), pRelative, what + " p");
        assertRelative(expected[3], r.ciLow(), 1e-12, what + " ciLow");
        assertRelative(expected[4], r.ciHigh(), 1e-12, what + " ciHigh");
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
