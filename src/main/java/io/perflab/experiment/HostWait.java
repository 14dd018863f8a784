package io.perflab.experiment;

import io.perflab.display.Format;
import io.perflab.runner.rpcbench.HostCount;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Why a queued experiment waits however short its queue: no live host can take it. A host can when its agent carries
 * the labels the experiment asks for (once it has run, exactly those of the host its first trial ran on), runs
 * command experiments if it is one, meets what the experiment needs of a host ({@link HostNeeds}: the platform each
 * of its engine options that runs on one platform only needs, the count a stopping target's metric needs: system
 * calls, or hardware counters), and is live: not declared lost, and heard within the heartbeat timeout. The queue
 * position alone counts the experiments ahead of it, which read "position 1" while the one agent able to run it was
 * gone.
 *
 * @param labels the labels a host must carry, {@code k=v,k=v}; empty: any host, or with {@code exactLabels} a host
 *     without labels
 * @param exactLabels whether the host must carry exactly these labels (those its first trial ran on)
 * @param runsCommands whether the host must run command experiments
 * @param platforms the engine options of its variants that run on one platform only: the host must be of each one's
 *     platform; empty when any platform will do
 * @param hardwareCounterTargets the metrics its stopping targets name that a host measures only with the CPU's
 *     hardware counters ({@code instructions_per_req}, {@code cycles_per_req}): the host must count them (its agent
 *     registered {@code hardwareCounters} true); empty when any host will do
 * @param systemCallTargets the metrics its stopping targets name that a host measures only where its trials count
 *     system calls ({@code syscalls_per_req}): the host must count them (its agent registered {@code systemCalls}
 *     true); empty when any host will do
 * @param noneAliveSince the last heartbeat of any agent able to take it; null if none has registered
 * @param detail what it waits for, and what to do: {@code Waiting for a host with labels pool=a; none alive since …}
 */
public record HostWait(String labels, boolean exactLabels, boolean runsCommands, List<PlatformNeed> platforms,
                       List<String> hardwareCounterTargets, List<String> systemCallTargets,
                       @Schema(nullable = true) Instant noneAliveSince, String detail) {

    /** Why {@code experiment} waits, given every group of registered hosts; empty if a live one can run it. */
    static Optional<HostWait> of(ExperimentRepository.Claimable experiment, List<AgentRepository.HostGroup> hosts) {
        List<AgentRepository.HostGroup> able = hosts.stream().filter(h -> experiment.mayBeRunBy(h.claimant()))
                .toList();
        if (able.stream().anyMatch(AgentRepository.HostGroup::live)) {
            return Optional.empty();
        }
        Instant lastAlive = able.stream().map(AgentRepository.HostGroup::lastHeartbeat).filter(Objects::nonNull)
                .max(Comparator.naturalOrder()).orElse(null);
        boolean exact = experiment.runLabels() != null;
        String labels = exact ? experiment.runLabels() : experiment.required().canonical();
        boolean commands = experiment.kind() == ExperimentKind.COMMAND;
        HostNeeds needs = experiment.needs();
        List<PlatformNeed> platforms = needs.platforms();
        StringBuilder detail = new StringBuilder("Waiting for a host");
        boolean named = exact || !labels.isEmpty();
        if (named) {
            detail.append(labels.isEmpty() ? " without labels" : (exact ? " labelled exactly " : " with labels ")
                    + labels).append(exact ? " (as the host its first trial ran on)" : "");
        }
        if (commands) {
            detail.append(named ? "," : "").append(" that runs command experiments");
        }
        if (!platforms.isEmpty()) {
            detail.append(named ? "," : "").append(" on ").append(platformsText(platforms));
        }
        boolean said = named || !platforms.isEmpty();
        for (HostCount count : HostCount.values()) {
            List<String> counted = needs.targetsOf(count);
            if (!counted.isEmpty()) {
                detail.append(said ? "," : "").append(count == HostCount.SYSCALLS ? " that counts system calls"
                        : " with hardware counters").append(" (target").append(counted.size() > 1 ? "s " : " ")
                        .append(String.join(" and ", counted)).append(counted.size() > 1 ? " are" : " is")
                        .append(" counted there only)");
                said = true;
            }
        }
        detail.append(lastAlive == null ? "; none has registered: start perflab agent on such a host."
                : "; none alive since " + Format.time(lastAlive) + ": start perflab agent on such a host, or bring "
                + "its agent back.");
        // a live host that would take it but said no platform: the one it runs on may be the one it needs
        if (!platforms.isEmpty() && hosts.stream().anyMatch(h -> h.live() && h.platform() == null
                && h.claimant().takes(experiment.kind(), experiment.required(), experiment.runLabels()))) {
            detail.append(" A live host that would otherwise take it registered no platform (os_name and os_arch), so "
                    + "it is not given it.");
        }
        // a live host that would take it but for a count: it said it does not make it, or said nothing of it
        for (HostCount count : HostCount.values()) {
            List<Boolean> uncounted = hosts.stream().filter(h -> h.live() && h.claimant().takes(experiment.kind(),
                    experiment.required(), experiment.runLabels()) && needs.platformsMetBy(h.platform())
                    && !needs.countMetBy(count, h.counts())).map(h -> h.counts().said(count)).toList();
            boolean syscalls = count == HostCount.SYSCALLS;
            if (uncounted.contains(Boolean.FALSE)) {
                detail.append(" A live host that would otherwise take it ").append(syscalls ? "counts no system calls"
                        : "has no hardware counters").append(": created with a target every host measures "
                        + "(cpu_us_per_req), the experiment would run there.");
            }
            if (uncounted.contains(null)) {
                detail.append(" A live host that would otherwise take it did not say whether it ")
                        .append(syscalls ? "counts system calls (systemCalls" : "has hardware counters "
                        + "(hardwareCounters").append(": its perflab agent is of an earlier release), so it is not "
                        + "given it.");
            }
        }
        return Optional.of(new HostWait(labels, exact, commands, platforms, needs.targetsOf(HostCount.HARDWARE),
                needs.targetsOf(HostCount.SYSCALLS), lastAlive, detail.toString()));
    }

    /**
     * {@code Linux on amd64 or aarch64 (completion=futex of variant with runs there only)}; the variants that share
     * an option named together.
     */
    private static String platformsText(List<PlatformNeed> platforms) {
        Map<String, List<PlatformNeed>> byOption = new LinkedHashMap<>();
        platforms.forEach(need -> byOption.computeIfAbsent(need.option() + " " + need.platform(),
                key -> new ArrayList<>()).add(need));
        return byOption.values().stream().map(needs -> needs.get(0).platform() + " (" + needs.get(0).option()
                + " of variant" + (needs.size() > 1 ? "s " : " ")
                + needs.stream().map(PlatformNeed::variant).collect(Collectors.joining(" and ")) + " runs there only)")
                .collect(Collectors.joining(" and on "));
    }
}
