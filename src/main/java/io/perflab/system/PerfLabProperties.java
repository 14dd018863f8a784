package io.perflab.system;

import java.nio.file.Path;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * PerfLab's own settings ({@code perflab.*}).
 *
 * @param dataDir home of the embedded database and of files such as {@code initial-admin-password}; a relative
 *     path is resolved against the working directory (default {@code data})
 * @param security security settings
 * @param trials how trial JVMs may be started
 */
@ConfigurationProperties("perflab")
public record PerfLabProperties(@DefaultValue("data") Path dataDir, @DefaultValue Security security,
                                @DefaultValue Trials trials) {

    /** The data directory as an absolute, normalized path. */
    public Path dataDirectory() {
        return dataDir.toAbsolutePath().normalize();
    }

    /**
     * @param bootstrapToken when set, accepted as an admin bearer token on {@code /api/**} (for CI setups and
     *     scripted installs); unset by default
     * @param anonymousReads when true (the default), anyone may read: the pages, the API's {@code GET}s, the API
     *     document, the metrics, and {@code POST /api/v1/analyze}; when false the instance is private: only the
     *     sign-in page with its styles and scripts and {@code /actuator/health} are open, and everything else needs a
     *     signed-in user or, outside the pages, a token of role user or the bootstrap token (see
     *     {@code SecurityConfig})
     */
    public record Security(String bootstrapToken, @DefaultValue("true") boolean anonymousReads) {

        public boolean hasBootstrapToken() {
            return bootstrapToken != null && !bootstrapToken.isBlank();
        }
    }

    /**
     * @param rawJvmFlags when true, administrators may give trial JVMs any flag; everyone else, and everyone when
     *     false (the default), only the flags of {@link io.perflab.runner.experiment.JvmFlagAllowList}
     * @param jvmArgs the fixed flags of every trial JVM, before each variant's own; empty (the default) means
     *     {@link io.perflab.runner.experiment.ExperimentPlan#DEFAULT_JVM_ARGS}, the flags measurements are made with.
     *     An operator's setting: a host with a bigger workload may want a bigger heap; the test suite starts its
     *     functional trials lighter
     * @param maxJvmMemory the most memory one trial JVM's flags, the fixed ones and a request's counted together, may
     *     give it (its heap, direct memory, code cache and metaspace together), e.g. {@code 8GB}; unset (the default)
     *     means a quarter of the host's. The fixed flags alone must fit it where this service runs trials, else it
     *     does not start
     */
    public record Trials(boolean rawJvmFlags, List<String> jvmArgs, DataSize maxJvmMemory) {

        public Trials {
            jvmArgs = jvmArgs == null ? List.of() : List.copyOf(jvmArgs);
            if (maxJvmMemory != null && maxJvmMemory.toBytes() <= 0) {
                throw new IllegalArgumentException("perflab.trials.max-jvm-memory must be more than 0 bytes, got "
                        + maxJvmMemory);
            }
        }

        /** {@link #maxJvmMemory} in bytes, or null when unset. */
        public Long maxJvmMemoryBytes() {
            return maxJvmMemory == null ? null : maxJvmMemory.toBytes();
        }
    }
}
