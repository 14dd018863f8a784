package io.perflab.experiment;

import io.perflab.agent.HostCounts;
import io.perflab.agent.HostPlatform;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.rpcbench.HostCount;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * What an experiment needs of the host that runs it, beyond the labels it asks for and, for a command experiment, a
 * host that runs commands: the platform of each engine option of its variants that runs on one platform only
 * ({@link PlatformNeed}, {@code completion=futex}), and each count a host may refuse ({@link HostCount}: system calls,
 * and instructions and cycles with the CPU's hardware counters) where one of its stopping targets names a metric of
 * that count ({@code syscalls_per_req}, {@code instructions_per_req}). A claim gives it only to a host that meets
 * each need ({@link Claimant#mayRun}). A host whose agent did not say (registered no platform, or nothing of a count)
 * meets none: on the wrong host the experiment fails every trial, or stops after its first pair with its target
 * unmeasured, while waiting loses nothing and {@link HostWait} says what it waits for.
 *
 * @param platforms its variants' engine options that run on one platform only: the host must be of each one's
 *     platform
 * @param countedTargets the metrics its stopping targets name that a host measures only where it makes their count
 *     ({@link HostCount#of}), in the targets' order, each once: the host must make each one's count; empty when any
 *     host will do
 */
record HostNeeds(List<PlatformNeed> platforms, List<String> countedTargets) {

    /** An experiment that any host of its labels may run. */
    static final HostNeeds NONE = new HostNeeds(List.of(), List.of());

    HostNeeds {
        platforms = List.copyOf(platforms);
        countedTargets = List.copyOf(countedTargets);
    }

    /**
     * The needs of an experiment of {@code kind} from its variants' engine options as stored (name → value) and the
     * metrics its stopping targets name. A command experiment's targets are metrics its commands print, which no host
     * counts for it: they need nothing of a host.
     */
    static HostNeeds of(ExperimentKind kind, Map<VariantName, Map<String, String>> storedOptions,
                        List<String> targetMetrics) {
        List<String> counted = kind != ExperimentKind.ENGINE ? List.of()
                : targetMetrics.stream().filter(metric -> HostCount.of(metric).isPresent()).distinct().toList();
        return new HostNeeds(PlatformNeed.of(storedOptions), counted);
    }

    /** The metrics of {@link #countedTargets()} that {@code count} gives, in the targets' order. */
    List<String> targetsOf(HostCount count) {
        return countedTargets.stream().filter(metric -> HostCount.of(metric).orElseThrow() == count).toList();
    }

    /**
     * Whether a host of {@code platform} whose agent said {@code counts} meets every need; null for the platform, or
     * for a count, when its agent did not say.
     */
    boolean metBy(HostPlatform platform, HostCounts counts) {
        return platformsMetBy(platform) && countsMetBy(counts);
    }

    /** Whether a host of {@code platform} (null: its agent registered none) is of each platform needed. */
    boolean platformsMetBy(HostPlatform platform) {
        return platforms.stream().allMatch(need -> need.metBy(platform));
    }

    /**
     * Whether a host whose agent said {@code counts} makes every count the targets need: it said true of each, or
     * none is needed.
     */
    boolean countsMetBy(HostCounts counts) {
        return Arrays.stream(HostCount.values()).allMatch(count -> countMetBy(count, counts));
    }

    /** Whether a host whose agent said {@code counts} makes {@code count}, or the targets need it not. */
    boolean countMetBy(HostCount count, HostCounts counts) {
        return targetsOf(count).isEmpty() || counts.makes(count);
    }
}
