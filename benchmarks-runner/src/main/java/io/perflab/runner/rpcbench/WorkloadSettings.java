package io.perflab.runner.rpcbench;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.math.BigDecimal;

/**
 * The workload settings a user gave — in an API request, the experiment form or on the command line — each null
 * when left out, with the bounds a user may choose. {@link #applyTo} puts them over a base workload (rpc-bench's
 * defaults or a preset's). The bounds are Bean Validation constraints, so the API and the form name the field at
 * fault and the command line names the flag.
 *
 * @param warmupSeconds seconds, {@code auto} or {@code auto:MAX}; at most {@link Warmup#MAX}
 * @param runSeconds length of the measured window, at least {@value #MIN_RUN_SECONDS} and at most
 *     {@value #MAX_RUN_SECONDS} s
 * @param serverWorkNanos CPU time the server spins per call, a known cost to inject; at most
 *     {@value #MAX_SERVER_WORK_NANOS} ns
 */
public record WorkloadSettings(
        Stack stack,
        CallMode mode,
        @Min(1) @Max(1024) Integer clientThreads,
        @Min(1) @Max(100_000) Integer asyncConcurrency,
        @Min(0) @Max(256) Integer workerThreads,
        @Min(1) @Max(64) Integer serverReactors,
        Boolean encryption,
        @Min(0) @Max(MAX_PAYLOAD_BYTES) Integer requestBytes,
        @Min(0) @Max(MAX_PAYLOAD_BYTES) Integer responseBytes,
        Warmup warmupSeconds,
        @DecimalMin(MIN_RUN_SECONDS) @DecimalMax(MAX_RUN_SECONDS) BigDecimal runSeconds,
        @Min(0) @Max(MAX_SERVER_WORK_NANOS) Long serverWorkNanos) {

    /** The largest echo payload: 16 MiB. */
    public static final int MAX_PAYLOAD_BYTES = 16 * 1024 * 1024;
    /**
     * The shortest measured window a user may ask for, in seconds. Shorter, a window holds fewer than 10 of the host
     * probe's 10 ms samples and 25 of a 250 Hz kernel's ticks, and reading the meters at its ends takes about as
     * long as the window itself (a window asked for as 0.0001 s measured some 30 ms of calls), so its figures would
     * be the meters' rather than the engine's.
     */
    public static final String MIN_RUN_SECONDS = "0.1";
    /** The longest measured window, in seconds. */
    public static final String MAX_RUN_SECONDS = "3600";

    /** The largest injected server work per call: 1 ms, far above any change worth calibrating on. */
    public static final long MAX_SERVER_WORK_NANOS = 1_000_000;

    /** Nothing set. */
    public static final WorkloadSettings NONE = new WorkloadSettings(null, null, null, null, null, null, null, null,
            null, null, null, null);

    /** {@code base} with every setting that is given put over it. */
    public Workload applyTo(Workload base) {
        return new Workload(
                mode != null ? mode : base.mode(),
                clientThreads != null ? clientThreads : base.clientThreads(),
                asyncConcurrency != null ? asyncConcurrency : base.asyncConcurrency(),
                workerThreads != null ? workerThreads : base.workerThreads(),
                serverReactors != null ? serverReactors : base.serverReactors(),
                encryption != null ? encryption : base.encryption(),
                requestBytes != null ? requestBytes : base.requestBytes(),
                responseBytes != null ? responseBytes : base.responseBytes(),
                warmupSeconds != null ? warmupSeconds : base.warmup(),
                runSeconds != null ? Seconds.of(runSeconds) : base.run(),
                stack != null ? stack : base.stack(),
                serverWorkNanos != null ? serverWorkNanos : base.serverWorkNanos());
    }
}
