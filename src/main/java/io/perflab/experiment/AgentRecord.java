package io.perflab.experiment;

import io.perflab.agent.HostCounts;
import io.perflab.agent.HostLabels;
import io.perflab.agent.HostPlatform;
import io.perflab.security.StoredToken;
import java.time.Instant;
import java.util.Map;

/**
 * A registered agent as stored.
 *
 * @param name a name for people
 * @param labels the labels of its host
 * @param builtIn whether it is a service's in-process scheduler
 * @param runsCommands whether it runs command experiments
 * @param host its host name
 * @param environment the host environment it registered with (CPU model, cores, kernel, CPU accounting, JVM)
 * @param platform the platform of its host as its environment says ({@link HostPlatform#registered}); null when it
 *     says none
 * @param counts what it said of the counts its trials make only where the host allows them (system calls, and
 *     instructions and cycles with the CPU's hardware counters); null for each it said nothing of
 * @param registeredBy who registered it, for people: the token's ({@code token:NAME}) or user's name
 * @param registeredByToken the id of the stored API token it registered with; null when a user (or the bootstrap
 *     token) registered it, and for a built-in agent
 * @param status {@code IDLE} or {@code RUNNING} while it heartbeats, {@code LOST} once its heartbeat timed out,
 *     {@code LEFT} once it was stopped and said so ({@code POST /api/v1/agents/{id}/leave})
 * @param experimentId the experiment it runs now, or null
 */
public record AgentRecord(long id, String name, HostLabels labels, boolean builtIn, boolean runsCommands, String host,
                          Map<String, String> environment, HostPlatform platform, HostCounts counts,
                          String registeredBy, Long registeredByToken, Instant registeredAt, Instant lastHeartbeat,
                          String status, Long experimentId) {

    /**
     * Whether {@code caller} registered this agent: with the same stored API token, told by its id, not its name; or,
     * for an agent a user registered without a token, the same user ({@link StoredToken#sameCaller}). A built-in
     * agent is no caller's.
     */
    boolean registeredBy(AgentCoordinator.Caller caller) {
        return !builtIn && StoredToken.sameCaller(caller.name(), caller.tokenId(), registeredBy, registeredByToken);
    }

    /**
     * Its host as the agents page describes it beside the host's name: the CPU model and how many CPUs
     * ({@code AMD EPYC 7B13 × 8}), then the kernel, each part only where the agent registered it (a model alone, or
     * {@code 8 CPUs} alone); empty when it registered none of them.
     */
    public String hostDetails() {
        String model = registered("cpu_model");
        String count = registered("cpu_count");
        String cpu = model.isEmpty() ? count.isEmpty() ? "" : count + ("1".equals(count) ? " CPU" : " CPUs")
                : count.isEmpty() ? model : model + " × " + count;
        String kernel = registered("kernel");
        return cpu.isEmpty() || kernel.isEmpty() ? cpu + kernel : cpu + " · " + kernel;
    }

    /** The environment's entry {@code key}, stripped; empty when the agent registered none (or a blank one). */
    private String registered(String key) {
        String value = environment.get(key);
        return value == null ? "" : value.strip();
    }

    /** Whether it is no longer live: declared lost, or left. Its host must register again. */
    boolean gone() {
        return Status.LOST.name().equals(status) || Status.LEFT.name().equals(status);
    }

    /** The states of an agent, as the table {@code agent} and the API write them. */
    public enum Status {
        /** It heartbeats and runs nothing. */
        IDLE,
        /** It heartbeats and runs an experiment. */
        RUNNING,
        /** Its heartbeat timed out: its experiment was interrupted, and its host must register again. */
        LOST,
        /** It was stopped and said so ({@code POST /api/v1/agents/{id}/leave}). */
        LEFT
    }

    /** The claimant this agent is when it polls. */
    Claimant claimant() {
        return new Claimant(id, labels, builtIn, runsCommands, platform, counts);
    }
}
