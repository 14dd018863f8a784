package io.perflab.runner.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/** The order in which an experiment's trials run. */
public enum TrialOrder {
    /** without, with, without, with… — slow drift of the machine hits both variants alike. The default. */
    INTERLEAVED,
    /** Balanced pairs, each pair's order drawn from the seed: as fair as interleaving, without its rhythm. */
    RANDOMIZED,
    /** All {@code without} trials, then all {@code with}: confounds drift with the change; for demonstration. */
    BLOCKED;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses the label; the message names {@code --order} and the allowed values. */
    public static TrialOrder parse(String text) {
        for (TrialOrder order : values()) {
            if (order.label().equalsIgnoreCase(text.strip())) {
                return order;
            }
        }
        throw new IllegalArgumentException("--order must be interleaved, randomized or blocked, got '" + text + "'");
    }

    /** The variant of each position, {@code 2 × runsPerVariant} long. */
    List<VariantName> sequence(int runsPerVariant, long seed) {
        List<VariantName> sequence = new ArrayList<>(2 * runsPerVariant);
        SplittableRandom random = new SplittableRandom(seed);
        for (int pair = 0; pair < runsPerVariant; pair++) {
            switch (this) {
                case INTERLEAVED -> {
                    sequence.add(VariantName.WITHOUT);
                    sequence.add(VariantName.WITH);
                }
                case RANDOMIZED -> {
                    boolean withFirst = random.nextBoolean();
                    sequence.add(withFirst ? VariantName.WITH : VariantName.WITHOUT);
                    sequence.add(withFirst ? VariantName.WITHOUT : VariantName.WITH);
                }
                case BLOCKED -> sequence.add(VariantName.WITHOUT);
            }
        }
        if (this == BLOCKED) {
            for (int i = 0; i < runsPerVariant; i++) {
                sequence.add(VariantName.WITH);
            }
        }
        return sequence;
    }
}
