package io.perflab.experiment;

import io.perflab.runner.experiment.JvmFlagAllowList.Bounds;
import java.util.List;

/**
 * The tests' JVM flag policies: the default fixed flags ({@code -Xms512m -Xmx512m}, counted with a request's), and
 * the bounds of a host of 16 GiB whatever host runs them.
 */
final class JvmFlagPolicies {

    /** A quarter of 16 GiB per trial JVM. */
    static final Bounds HOST_16_GIB = Bounds.quarterOf(16L << 30);

    private JvmFlagPolicies() {
    }

    static JvmFlagPolicy of(boolean rawFlagsForAdmins) {
        return new JvmFlagPolicy(rawFlagsForAdmins, List.of(), HOST_16_GIB, false);
    }
}
