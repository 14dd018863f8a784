package io.perflab.runner.experiment;

import java.util.Locale;

/**
 * How an experiment sets its variants against each other (DESIGN, "Experiment designs").
 */
public enum ExperimentDesign {
    /** One measured window per fresh trial JVM (or command run), trials interleaved: the seeds' 40 + 40 with Welch. */
    FRESH,
    /**
     * Pairs of trial JVMs, one per variant, running at the same time, each pinned to its own half of the CPUs;
     * they warm up together and measure synchronized windows, and consecutive pairs swap halves and start order
     * (Bulej et al., ICPE 2020). The machine's drift hits both JVMs of a pair alike and cancels in their ratio.
     */
    DUET,
    /**
     * Pairs of trial JVMs alive together but loaded one at a time, windows in the order A B B A …, the idle one
     * paused: for a host with one CPU, or changes that fight over a shared resource (memory bandwidth, caches),
     * which running both at once would bias. Command experiments alternate their runs the same way.
     */
    ALTERNATING;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether the pair, not the trial, is the unit of replication. */
    public boolean paired() {
        return this != FRESH;
    }

    /** Parses the label; the message names {@code --design} and the allowed values. */
    public static ExperimentDesign parse(String text) {
        for (ExperimentDesign design : values()) {
            if (design.label().equalsIgnoreCase(text.strip())) {
                return design;
            }
        }
        throw new IllegalArgumentException("--design must be fresh, duet or alternating, got '" + text + "'");
    }
}
