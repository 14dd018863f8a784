package io.perflab.rpc;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Server sizing: the rpc-bench workload parameters that shape the server, plus the frame limit.
 * Immutable; derive with the {@code with…} methods or {@link #withSetting(String, String)}.
 *
 * <ul>
 *   <li>{@code serverReactors} (default 4): event loops serving accepted connections.</li>
 *   <li>{@code workerThreads} (default 1): service pool threads running method handlers;
 *       0 runs handlers directly on the reactor that read the request.</li>
 *   <li>{@code serviceQueueLength} (default 50): bounded queue in front of the workers; a call that
 *       does not fit is answered {@link RpcStatus#SERVER_TOO_BUSY}.</li>
 *   <li>{@code maxFrameBytes} (default 64 MiB): largest accepted frame (bytes after the length
 *       prefix); a longer claimed length closes the connection before anything is allocated.</li>
 * </ul>
 */
public record ServerConfig(int serverReactors, int workerThreads, int serviceQueueLength, int maxFrameBytes) {

    public static final String SERVER_REACTORS = "serverReactors";
    public static final String WORKER_THREADS = "workerThreads";
    public static final String SERVICE_QUEUE_LENGTH = "serviceQueueLength";
    public static final String MAX_FRAME_BYTES = "maxFrameBytes";

    public static final int DEFAULT_MAX_FRAME_BYTES = 64 * 1024 * 1024;

    private static final ServerConfig DEFAULTS = new ServerConfig(4, 1, 50, DEFAULT_MAX_FRAME_BYTES);

    public ServerConfig {
        if (serverReactors < 1) {
            throw new IllegalArgumentException(SERVER_REACTORS + " must be at least 1, got " + serverReactors);
        }
        if (workerThreads < 0) {
            throw new IllegalArgumentException(WORKER_THREADS + " must be 0 (run on the reactor) or more, got "
                    + workerThreads);
        }
        if (serviceQueueLength < 1) {
            throw new IllegalArgumentException(SERVICE_QUEUE_LENGTH + " must be at least 1, got "
                    + serviceQueueLength);
        }
        if (maxFrameBytes < WireFormat.MIN_REQUEST_FRAME_BYTES) {
            throw new IllegalArgumentException(MAX_FRAME_BYTES + " must be at least "
                    + WireFormat.MIN_REQUEST_FRAME_BYTES + ", got " + maxFrameBytes);
        }
    }

    public static ServerConfig defaults() {
        return DEFAULTS;
    }

    /** Setting names in {@link #describe()} order. */
    public static List<String> settingNames() {
        return List.of(SERVER_REACTORS, WORKER_THREADS, SERVICE_QUEUE_LENGTH, MAX_FRAME_BYTES);
    }

    public ServerConfig withServerReactors(int n) {
        return new ServerConfig(n, workerThreads, serviceQueueLength, maxFrameBytes);
    }

    public ServerConfig withWorkerThreads(int n) {
        return new ServerConfig(serverReactors, n, serviceQueueLength, maxFrameBytes);
    }

    public ServerConfig withServiceQueueLength(int n) {
        return new ServerConfig(serverReactors, workerThreads, n, maxFrameBytes);
    }

    public ServerConfig withMaxFrameBytes(int n) {
        return new ServerConfig(serverReactors, workerThreads, serviceQueueLength, n);
    }

    /**
     * A copy with one setting parsed from text.
     *
     * @throws IllegalArgumentException for an unknown name or an invalid value, naming what is allowed
     */
    public ServerConfig withSetting(String name, String value) {
        int n;
        try {
            n = Integer.parseInt(value.strip());
        } catch (NumberFormatException | NullPointerException e) {
            throw new IllegalArgumentException("invalid value '" + value + "' for server setting '" + name
                    + "'; expected an integer");
        }
        return switch (name) {
            case SERVER_REACTORS -> withServerReactors(n);
            case WORKER_THREADS -> withWorkerThreads(n);
            case SERVICE_QUEUE_LENGTH -> withServiceQueueLength(n);
            case MAX_FRAME_BYTES -> withMaxFrameBytes(n);
            default -> throw new IllegalArgumentException("unknown server setting '" + name
                    + "'; allowed settings: " + String.join(", ", settingNames()));
        };
    }

    /** Every setting as {@code name -> value}, in a stable order. */
    public Map<String, String> describe() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(SERVER_REACTORS, Integer.toString(serverReactors));
        m.put(WORKER_THREADS, Integer.toString(workerThreads));
        m.put(SERVICE_QUEUE_LENGTH, Integer.toString(serviceQueueLength));
        m.put(MAX_FRAME_BYTES, Integer.toString(maxFrameBytes));
        return Collections.unmodifiableMap(m);
    }
}
