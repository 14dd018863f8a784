package io.perflab.runner.rpcbench;

import io.perflab.rpc.EngineOptions;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * The RPC stack that rpc-bench drives. Every stack runs the same workload under the same metering; only the code
 * between the caller and the handler differs.
 */
public enum Stack {
    /** PerfLab's own engine (rpc-engine), the stack that the engine options configure. The default. */
    PERFLAB,
    /** gRPC-java on its shaded Netty: HTTP/2, byte-array messages, no protobuf. */
    GRPC,
    /**
     * Bare Netty request/response: length-prefixed frames without call ids, deadlines or status, the floor for
     * any Netty-based engine.
     */
    NETTY;

    /** The name used on command lines and in reports: {@code perflab}, {@code grpc}, {@code netty}. */
    @JsonValue
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a label in any case; the message gives the allowed values. */
    @JsonCreator
    public static Stack parse(String text) {
        for (Stack stack : values()) {
            if (stack.label().equalsIgnoreCase(text.strip())) {
                return stack;
            }
        }
        throw new IllegalArgumentException("must be perflab, grpc or netty, got '" + text + "'");
    }

    /** Starts this stack's server and the clients of {@code workload}; calls begin with {@link Load#start()}. */
    Load open(EngineOptions options, Workload workload) {
        RpcStack stack = switch (this) {
            case PERFLAB -> new PerfLabStack(options, workload);
            case GRPC -> new GrpcStack(workload);
            case NETTY -> new NettyStack(workload);
        };
        return Load.open(stack, workload);
    }
}
