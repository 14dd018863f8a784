package io.perflab.experiment;

import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.JvmFlagAllowList;
import io.perflab.system.InvalidInputException;
import io.perflab.system.PerfLabProperties;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Which JVM flags a request may put on a trial JVM's command line. Flags that could run or load code would let
 * anyone who may queue an experiment run programs on the benchmark host, which command experiments reserve for
 * administrators. So every caller gets {@link JvmFlagAllowList}'s flags only, unless the operator has set
 * {@code perflab.trials.raw-jvm-flags=true}, and then administrators may give any flag.
 */
@Component
public class JvmFlagPolicy {

    private final boolean rawFlagsForAdmins;
    private final List<String> fixedFlags;

    @Autowired
    public JvmFlagPolicy(PerfLabProperties properties) {
        this(properties.trials().rawJvmFlags(), properties.trials().jvmArgs());
    }

    JvmFlagPolicy(boolean rawFlagsForAdmins) {
        this(rawFlagsForAdmins, List.of());
    }

    /** @param fixedFlags the operator's fixed flags for every trial JVM ({@code perflab.trials.jvm-args}), or none */
    JvmFlagPolicy(boolean rawFlagsForAdmins, List<String> fixedFlags) {
        this.rawFlagsForAdmins = rawFlagsForAdmins;
        this.fixedFlags = List.copyOf(fixedFlags);
    }

    /**
     * {@code plan} with the operator's fixed flags, if any were set, in place of the default ones. The operator's
     * flags are the operator's choice; the allow-list is for what requests send ({@link #refusal}).
     */
    ExperimentPlan withFixedFlags(ExperimentPlan plan) {
        return fixedFlags.isEmpty() ? plan : plan.withJvmArgs(fixedFlags);
    }

    /** The fixed flags trial JVMs start with on this server: the operator's, or the measuring defaults. */
    List<String> fixedFlags() {
        return fixedFlags.isEmpty() ? ExperimentPlan.DEFAULT_JVM_ARGS : fixedFlags;
    }

    /** {@code flags} if this caller may give them, else a 400 naming {@code field} and the first refused flag. */
    List<String> check(String field, List<String> flags, boolean admin) {
        if (admin && rawFlagsForAdmins) {
            return flags;
        }
        Optional<String> refused = JvmFlagAllowList.firstRefused(flags);
        if (refused.isPresent()) {
            throw InvalidInputException.of(field, JvmFlagAllowList.refusal(refused.get()) + (admin
                    ? "; an operator can let administrators give any flag with perflab.trials.raw-jvm-flags=true"
                    : ""));
        }
        return flags;
    }

    /**
     * Why a stored plan may not run on this server, if it may not: a plan queued before the allow-list existed,
     * or while raw flags were allowed, runs only while they still are.
     */
    Optional<String> refusal(ExperimentPlan plan) {
        if (rawFlagsForAdmins) {
            return Optional.empty();
        }
        return java.util.stream.Stream.of(plan.without(), plan.with())
                .filter(EngineVariant.class::isInstance)
                .map(v -> JvmFlagAllowList.firstRefused(((EngineVariant) v).jvmArgs()))
                .flatMap(Optional::stream)
                .findFirst()
                .or(() -> JvmFlagAllowList.firstRefused(plan.jvmArgs()))
                .map(flag -> "the JVM flag '" + flag + "' is not allowed on this server "
                        + "(perflab.trials.raw-jvm-flags is off); no trial was started");
    }
}
