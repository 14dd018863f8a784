package io.perflab.stats;

/** Checks shared by the tests: finite values and enough of them, with messages naming the group. */
final class Inputs {

    private Inputs() {
    }

    /**
     * Rejects null, NaN, infinite or too large values ({@link Sample#MAX_MAGNITUDE}) and fewer than
     * {@code minimum} observations.
     *
     * @param group the name users know the sample by, e.g. {@code with}
     */
    static void requireSample(double[] values, String group, int minimum) {
        if (values == null) {
            throw new IllegalArgumentException("no '" + group + "' observations given");
        }
        for (int i = 0; i < values.length; i++) {
            String problem = Sample.problem(values[i]);
            if (problem != null) {
                throw new IllegalArgumentException("'" + group + "' value " + (i + 1) + " " + problem);
            }
        }
        if (values.length < minimum) {
            throw new IllegalArgumentException("not enough '" + group + "' observations: " + values.length
                    + " (need ≥ " + minimum + ")");
        }
    }

    static void requireConfidenceLevel(double level) {
        if (!(level > 0 && level < 1)) {
            throw new IllegalArgumentException("confidence level must be between 0 and 1 (exclusive), got " + level);
        }
    }
}
