package io.perflab.experiment;

import io.perflab.agent.HostPlatform;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.trial.MetricKeys;
import java.util.List;
import java.util.Map;

/**
 * What an experiment needs of the host that runs it, beyond the labels it asks for and, for a command experiment, a
 * host that runs commands: the platform of each engine option of its variants that runs on one platform only
 * ({@link PlatformNeed}, {@code completion=futex}), and the CPU's hardware counters where one of its stopping targets
 * names a metric only they count ({@link MetricKeys#ENGINE_WHERE_COUNTED}, {@code instructions_per_req}). A claim
 * gives it only to a host that meets each need ({@link Claimant#mayRun}). A host whose agent did not say (registered
 * no platform, or nothing of hardware counters) meets none: on the wrong host the experiment fails every trial, or
 * stops after its first pair with its target unmeasured, while waiting loses nothing and {@link HostWait} says what
 * it waits for.
 *
 * @param platforms its variants' engine options that run on one platform only: the host must be of each one's
 *     platform
 * @param hardwareCounterTargets the metrics its stopping targets name that a host measures only with the CPU's
 *     hardware counters, in the targets' order, each once: the host must count them; empty when any host will do
 */
record HostNeeds(List<PlatformNeed> platforms, List<String> hardwareCounterTargets) {

    /** An experiment that any host of its labels may run. */
    static final HostNeeds NONE = new HostNeeds(List.of(), List.of());

    HostNeeds {
        platforms = List.copyOf(platforms);
        hardwareCounterTargets = List.copyOf(hardwareCounterTargets);
    }

    /**
     * The needs of an experiment of {@code kind} from its variants' engine options as stored (name → value) and the
     * metrics its stopping targets name. A command experiment's targets are metrics its commands print, which no host
     * counts for it: they need nothing of a host.
     */
    static HostNeeds of(ExperimentKind kind, Map<VariantName, Map<String, String>> storedOptions,
                        List<String> targetMetrics) {
        List<String> counted = kind != ExperimentKind.ENGINE ? List.of()
                : targetMetrics.stream().filter(MetricKeys.ENGINE_WHERE_COUNTED::contains).distinct().toList();
        return new HostNeeds(PlatformNeed.of(storedOptions), counted);
    }

    /**
     * Whether a host of {@code platform} whose agent said {@code hardwareCounters} meets every need; null for either
     * when its agent did not say.
     */
    boolean metBy(HostPlatform platform, Boolean hardwareCounters) {
        return platformsMetBy(platform) && hardwareCountersMetBy(hardwareCounters);
    }

    /** Whether a host of {@code platform} (null: its agent registered none) is of each platform needed. */
    boolean platformsMetBy(HostPlatform platform) {
        return platforms.stream().allMatch(need -> need.metBy(platform));
    }

    /**
     * Whether a host whose agent said {@code hardwareCounters} (null: said nothing) counts what the targets need: it
     * said true, or none is needed.
     */
    boolean hardwareCountersMetBy(Boolean hardwareCounters) {
        return hardwareCounterTargets.isEmpty() || Boolean.TRUE.equals(hardwareCounters);
    }
}
