package io.perflab.agent;

import io.perflab.runner.metering.CpuTimeAccounting;
import io.perflab.runner.trial.HostEnvironment;
import io.perflab.system.Texts;
import java.util.LinkedHashMap;
import java.util.Map;

/** The host environment an agent registers with: the runner's, plus how the kernel accounts CPU time. */
public final class AgentHost {

    private AgentHost() {
    }

    /** The longest value registered; longer ones (a JVM's flags) are cut. */
    public static final int MAX_VALUE = 2000;

    /**
     * JVM, host name, CPU model, cores, allowed CPUs, kernel, load, and the CPU accounting mode, each value cut to
     * {@value #MAX_VALUE} characters. The agent's own JVM flags are left out: the agents page is open to read, and
     * an operator's {@code -D} flags may hold what it should not show.
     */
    public static Map<String, String> environment() {
        Map<String, String> environment = new LinkedHashMap<>(HostEnvironment.capture());
        environment.remove("jvm_flags");
        environment.put("cpu_accounting", CpuTimeAccounting.host().describe());
        environment.replaceAll((key, value) -> Texts.cut(value, MAX_VALUE));
        return environment;
    }
}
