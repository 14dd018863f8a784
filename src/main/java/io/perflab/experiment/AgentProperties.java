package io.perflab.experiment;

import io.perflab.agent.HostLabels;
import io.perflab.system.SettingException;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How this service coordinates agents ({@code perflab.agents.*}).
 *
 * @param heartbeatInterval how often agents are told to heartbeat (default 5 s)
 * @param heartbeatTimeout an agent silent for longer is lost: its experiment becomes INTERRUPTED and the next
 *     agent of the same labels resumes it (default 30 s; at least twice the interval)
 * @param longPoll how long a poll waits for an experiment before it answers that there is none (default 20 s)
 * @param builtIn whether this service's scheduler runs experiments itself, as the built-in agent (default true;
 *     turn it off on service instances of a team setup, so that benchmarks never share a host with the service)
 * @param builtInName the built-in agent's name (default {@code built-in@} and the host name); a restarted service
 *     finds the experiments its scheduler left running by it
 * @param builtInLabels the labels of the built-in agent's host, {@code k=v,k=v} (default none: it runs the
 *     experiments that ask for no labels)
 */
@ConfigurationProperties("perflab.agents")
public record AgentProperties(@DefaultValue("5s") Duration heartbeatInterval,
                              @DefaultValue("30s") Duration heartbeatTimeout,
                              @DefaultValue("20s") Duration longPoll,
                              @DefaultValue("true") boolean builtIn,
                              String builtInName,
                              @DefaultValue("") String builtInLabels) {

    public AgentProperties {
        if (heartbeatInterval.isNegative() || heartbeatInterval.isZero()) {
            throw new IllegalArgumentException("perflab.agents.heartbeat-interval must be positive, got "
                    + heartbeatInterval);
        }
        if (heartbeatTimeout.compareTo(heartbeatInterval.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("perflab.agents.heartbeat-timeout (" + heartbeatTimeout
                    + ") must be at least twice perflab.agents.heartbeat-interval (" + heartbeatInterval + ")");
        }
        if (longPoll.isNegative()) {
            throw new IllegalArgumentException("perflab.agents.long-poll must not be negative, got " + longPoll);
        }
    }

    /**
     * {@link #builtInLabels} read as labels.
     *
     * @throws SettingException naming {@code perflab.agents.built-in-labels} and the label that is wrong
     */
    public HostLabels builtInHostLabels() {
        try {
            return HostLabels.parse(builtInLabels);
        } catch (IllegalArgumentException e) {
            throw new SettingException("perflab.agents.built-in-labels: " + e.getMessage());
        }
    }

    /** The defaults, for schedulers built outside Spring. */
    public static AgentProperties defaults() {
        return new AgentProperties(Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(20), true, null,
                "");
    }
}
