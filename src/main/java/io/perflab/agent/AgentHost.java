package io.perflab.agent;

import io.perflab.runner.metering.CpuTimeAccounting;
import io.perflab.runner.trial.HostEnvironment;
import java.util.LinkedHashMap;
import java.util.Map;

/** The host environment an agent registers with: the runner's, plus how the kernel accounts CPU time. */
public final class AgentHost {

    private AgentHost() {
    }

    /** JVM, host name, CPU model, cores, allowed CPUs, kernel, load, and the CPU accounting mode. */
    public static Map<String, String> environment() {
        Map<String, String> environment = new LinkedHashMap<>(HostEnvironment.capture());
        environment.put("cpu_accounting", CpuTimeAccounting.host().describe());
        return environment;
    }
}
