package io.perflab.rpc;

import java.util.List;
import java.util.Objects;

/**
 * The platform an engine option's code path runs on, where it runs on one only ({@link EngineOptions#platforms()}):
 * an operating system and the processor architectures on it, named as a JVM reports them in {@code os.name} and
 * {@code os.arch}, so that a host can be checked against it by what its JVM reports, without a JVM started there.
 *
 * @param osName what {@code os.name} starts with on it, e.g. {@code Linux}
 * @param architectures the values {@code os.arch} takes on it, e.g. {@code amd64} and {@code aarch64}
 */
public record Platform(String osName, List<String> architectures) {

    public Platform {
        Objects.requireNonNull(osName, "osName");
        architectures = List.copyOf(architectures);
    }

    /** Whether a JVM that reports {@code osName} and {@code osArch} runs on it; false if either is unknown (null). */
    public boolean includes(String osName, String osArch) {
        return osName != null && osArch != null && osName.startsWith(this.osName) && architectures.contains(osArch);
    }

    /** {@code Linux on amd64 or aarch64}. */
    @Override
    public String toString() {
        int last = architectures.size() - 1;
        return osName + " on " + (last < 1 ? String.join("", architectures)
                : String.join(", ", architectures.subList(0, last)) + " or " + architectures.get(last));
    }
}
