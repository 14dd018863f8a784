package io.perflab.runner.experiment;

/**
 * How a pair of a paired design is laid out on the host.
 *
 * @param withoutCpus the CPU list the baseline's JVM is pinned to, null when it is not pinned
 * @param withCpus the CPU list the change's JVM is pinned to, null when it is not pinned
 * @param first the variant whose JVM (or command) starts first, and, in the alternating design, measures first
 */
public record PairPlacement(String withoutCpus, String withCpus, VariantName first) {

    /** The CPU list of {@code variant}'s JVM, null when it is not pinned. */
    public String cpus(VariantName variant) {
        return variant == VariantName.WITH ? withCpus : withoutCpus;
    }
}
