package io.perflab.agent;

import io.perflab.runner.rpcbench.HostCount;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * What an agent said of the counts its trials make only where its host allows them ({@link HostCount}): for each,
 * true or false as it registered it, or null where it said nothing (an agent of an earlier release). The service
 * gives an agent an experiment whose stopping target names such a count's metric only where it said true
 * ({@code io.perflab.experiment.HostNeeds}).
 *
 * @param systemCalls whether its trials count system calls per request ({@code syscalls_per_req}), the kernel letting
 *     them read the system-call tracepoint
 * @param hardwareCounters whether its trials count instructions and cycles per request ({@code instructions_per_req},
 *     {@code cycles_per_req}), the kernel granting its host the CPU's hardware counters
 */
public record HostCounts(@Schema(nullable = true) Boolean systemCalls,
                         @Schema(nullable = true) Boolean hardwareCounters) {

    /** An agent that said nothing of any count. */
    public static final HostCounts UNSAID = new HostCounts(null, null);

    /** What it said of {@code count}: true, false, or null for nothing. */
    public Boolean said(HostCount count) {
        return switch (count) {
            case SYSCALLS -> systemCalls;
            case HARDWARE -> hardwareCounters;
        };
    }

    /** Whether it said its trials make {@code count}. */
    public boolean makes(HostCount count) {
        return Boolean.TRUE.equals(said(count));
    }
}
