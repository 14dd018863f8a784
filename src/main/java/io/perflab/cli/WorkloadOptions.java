package io.perflab.cli;

import io.perflab.runner.rpcbench.CallMode;
import io.perflab.runner.rpcbench.InvalidSettingException;
import io.perflab.runner.rpcbench.Seconds;
import io.perflab.runner.rpcbench.Stack;
import io.perflab.runner.rpcbench.Warmup;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.rpcbench.WorkloadSettings;
import java.math.BigDecimal;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * rpc-bench's workload flags, shared by {@code bench}, {@code ab}, {@code peers} and {@code calibrate}. Each option
 * field is named as the {@link WorkloadSettings} component it sets, so a broken bound names the flag.
 */
final class WorkloadOptions {

    @Spec(Spec.Target.MIXEE)
    private CommandSpec mixee;

    @Option(names = "--stack", paramLabel = "perflab|grpc|netty",
            converter = StackConverter.class,
            description = "RPC stack under load: PerfLab's engine, gRPC-java or bare Netty (default: perflab).")
    private Stack stack;

    @Option(names = "--mode", paramLabel = "sync|async", converter = ModeConverter.class,
            description = "Call mode (default: sync).")
    private CallMode mode;

    @Option(names = "--client-threads", paramLabel = "N",
            description = "Sync: client threads, each with its own connection; async: client reactors (default: 16).")
    private Integer clientThreads;

    @Option(names = "--async-concurrency", paramLabel = "N",
            description = "Outstanding calls in async mode (default: 60).")
    private Integer asyncConcurrency;

    @Option(names = "--worker-threads", paramLabel = "N",
            description = "Server worker threads; 0 runs handlers on the reactors (default: 1).")
    private Integer workerThreads;

    @Option(names = "--server-reactors", paramLabel = "N", description = "Server event loops (default: 4).")
    private Integer serverReactors;

    @Option(names = "--encryption", description = "TLS on the connections (the engine's tls option).")
    private Boolean encryption;

    @Option(names = "--request-bytes", paramLabel = "N",
            description = "Echo request payload; 0 with --response-bytes 0 calls Calculator.Add (default: 0).")
    private Integer requestBytes;

    @Option(names = "--response-bytes", paramLabel = "N", description = "Echo response payload (default: 0).")
    private Integer responseBytes;

    @Option(names = "--warmup-seconds", paramLabel = "S|auto[:MAX]", converter = WarmupConverter.class,
            description = "Warmup before the measured window: seconds, or auto = until calls/s and CPU "
                    + "per call over three 1 s steps lie within 2 %% and the JIT is quiet (capped at MAX, "
                    + "default 30) (default: auto:20; paired designs: auto:15).")
    private Warmup warmupSeconds;

    @Option(names = "--run-seconds", paramLabel = "S", converter = SecondsConverter.class,
            description = "Length of the measured window, 0.1 to 3600 (default: 5; paired designs: 3).")
    private BigDecimal runSeconds;

    @Option(names = "--server-work-nanos", paramLabel = "NS",
            description = "CPU time the server spins in user space per call before it answers: a known cost to "
                    + "inject, calibrated on the thread CPU clock (default: 0).")
    private Long serverWorkNanos;

    /**
     * A plain decimal number of seconds (no hexadecimal, no suffix) as written, bounded by its flag's own
     * constraints ({@link WorkloadSettings}, checked before it is used) rather than by the longest any duration may
     * be, so that {@code --run-seconds 5000} is refused as more than 3600, and shown as 5000.
     */
    static final class SecondsConverter implements ITypeConverter<BigDecimal> {
        @Override
        public BigDecimal convert(String text) {
            return PerfLabCommand.converted(() -> Seconds.number(text));
        }
    }

    /** {@code perflab}, {@code grpc} or {@code netty}, in any case. */
    static final class StackConverter implements ITypeConverter<Stack> {
        @Override
        public Stack convert(String text) {
            return PerfLabCommand.converted(() -> Stack.parse(text));
        }
    }

    /** {@code sync} or {@code async}, in any case. */
    static final class ModeConverter implements ITypeConverter<CallMode> {
        @Override
        public CallMode convert(String text) {
            return PerfLabCommand.converted(() -> CallMode.parse(text));
        }
    }

    /** Seconds, {@code auto} or {@code auto:MAX}. */
    static final class WarmupConverter implements ITypeConverter<Warmup> {
        @Override
        public Warmup convert(String text) {
            return PerfLabCommand.converted(() -> Warmup.parse(text));
        }
    }

    /** What the flags set. */
    WorkloadSettings settings() {
        return new WorkloadSettings(stack, mode, clientThreads, asyncConcurrency, workerThreads, serverReactors,
                encryption, requestBytes, responseBytes, warmupSeconds, runSeconds, serverWorkNanos);
    }

    /**
     * The workload the flags describe, rpc-bench's defaults for the rest.
     *
     * @throws ParameterException naming the flag whose value is out of bounds
     */
    Workload workload() {
        return workload(Workload.DEFAULTS);
    }

    /** The workload the flags describe, {@code base} for the rest. */
    Workload workload(Workload base) {
        WorkloadSettings settings = Constraints.check(mixee, settings());
        try {
            return settings.applyTo(base);
        } catch (InvalidSettingException e) {
            throw invalid(e);
        }
    }

    /** {@code e} said with its flag, e.g. {@code --encryption: is supported with the perflab stack only}. */
    ParameterException invalid(InvalidSettingException e) {
        return new ParameterException(mixee.commandLine(), Constraints.optionName(mixee, e.field()) + ": "
                + e.problem());
    }

    /** Whether {@code --stack} was given. */
    boolean stackGiven() {
        return stack != null;
    }
}
