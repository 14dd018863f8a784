package io.perflab.agent;

import io.perflab.rpc.Platform;
import java.util.Map;
import java.util.Optional;

/**
 * The platform of a benchmark host as its JVM reports it, {@code os.name} and {@code os.arch} ({@code Linux},
 * {@code amd64}): what an agent registers of it, against which an engine option that runs on one platform only
 * ({@link io.perflab.rpc.EngineOptions#platforms()}) is checked.
 *
 * @param osName the JVM's {@code os.name}, 1 to {@value #MAX_PART} characters
 * @param osArch the JVM's {@code os.arch}, 1 to {@value #MAX_PART} characters
 */
public record HostPlatform(String osName, String osArch) {

    /** The longest {@code os.name} or {@code os.arch} kept: the columns that hold them. */
    public static final int MAX_PART = 100;

    /** This JVM's platform. */
    public static HostPlatform current() {
        return new HostPlatform(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
    }

    /**
     * The platform an agent registered in its environment: its entries {@value AgentHost#OS_NAME} and
     * {@value AgentHost#OS_ARCH}; for an agent that sent neither (a {@code perflab agent} from before it registered
     * them), its entry {@code kernel}, which every {@code perflab agent} registered as {@code os.name os.version
     * os.arch} ({@code Linux 6.1.0-18-amd64 amd64}: the name is the words before the last two). Empty when neither
     * says, or says more than {@value #MAX_PART} characters: an agent not of PerfLab's making that registered no
     * platform.
     */
    public static Optional<HostPlatform> registered(Map<String, String> environment) {
        String name = environment.get(AgentHost.OS_NAME);
        String arch = environment.get(AgentHost.OS_ARCH);
        if (name != null || arch != null) {
            return of(name, arch);
        }
        String kernel = environment.get("kernel");
        String[] words = kernel == null ? new String[0] : kernel.strip().split("\\s+");
        if (words.length < 3) {
            return Optional.empty();
        }
        return of(String.join(" ", java.util.Arrays.asList(words).subList(0, words.length - 2)),
                words[words.length - 1]);
    }

    /** The platform of these parts, stripped; empty when either is null, blank or over {@value #MAX_PART} long. */
    public static Optional<HostPlatform> of(String osName, String osArch) {
        if (!isPart(osName) || !isPart(osArch)) {
            return Optional.empty();
        }
        return Optional.of(new HostPlatform(osName.strip(), osArch.strip()));
    }

    /** Whether {@code part} can be an {@code os.name} or {@code os.arch} kept: 1 to {@value #MAX_PART} characters. */
    public static boolean isPart(String part) {
        return part != null && !part.isBlank() && part.strip().length() <= MAX_PART;
    }

    /** Whether a JVM of this platform runs on {@code platform}. */
    public boolean isOn(Platform platform) {
        return platform.includes(osName, osArch);
    }

    /** {@code Linux on amd64}. */
    @Override
    public String toString() {
        return osName + " on " + osArch;
    }
}
