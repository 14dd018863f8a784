package io.perflab.runner.experiment;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How a plan's trial processes are run, whatever its variants: each trial's time limit, the pause between trials,
 * the failures it tolerates and the flags every trial JVM gets. Both kinds of plan have them.
 *
 * @param <P> the plan, returned by each {@code with…}
 */
public interface TrialProcessSettings<P extends TrialProcessSettings<P>> {

    /** The same plan with each trial's time limit set to {@code value}. */
    P withTrialTimeout(Duration value);

    /** The same plan with the pause between trials set to {@code value}. */
    P withCooldown(Duration value);

    /** The same plan stopping once more than {@code value} trials have failed. */
    P withMaxFailures(int value);

    /** The same plan with {@code value} as the flags of every trial JVM. */
    P withJvmArgs(List<String> value);

    /**
     * Checks the settings as a plan's constructor receives them.
     *
     * @throws IllegalArgumentException naming the command-line option of a setting out of range
     */
    static void check(Duration trialTimeout, Duration cooldown, int maxFailures) {
        Objects.requireNonNull(trialTimeout, "trialTimeout");
        Objects.requireNonNull(cooldown, "cooldown");
        if (trialTimeout.isNegative() || trialTimeout.isZero()) {
            throw new IllegalArgumentException("--trial-timeout must be greater than 0");
        }
        if (cooldown.isNegative()) {
            throw new IllegalArgumentException("--cooldown must not be negative");
        }
        if (maxFailures < 0) {
            throw new IllegalArgumentException("--max-failures must be ≥ 0, got " + maxFailures);
        }
    }
}
