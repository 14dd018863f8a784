package io.perflab.runner.trial;

import io.perflab.runner.metering.KernelMeter;
import io.perflab.runner.metering.ProcessMeter;
import io.perflab.runner.rpcbench.RpcBench;
import io.perflab.runner.rpcbench.RpcBenchResult;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The body of a forked trial JVM: reads its {@link TrialSpec} (one JSON argument), runs rpc-bench once and prints the
 * {@link TrialProtocol} line. {@code perflab trial} calls {@link #run}; tests start this class directly. How the
 * window's CPU time is split and whether its system calls are counted come from the JVM's system properties
 * ({@link KernelMeter#fromSystemProperties()}), so that they travel with the trial's JVM flags. With
 * {@value #DRIVEN} before the spec it is one JVM of a pair of a paired design, whose windows the runner drives over
 * its standard input ({@link DrivenTrial}).
 *
 * <p>Exit status: 0 with a result; 1 with a result when calls failed in the window (the runner records the
 * trial as failed); 2 for arguments it cannot use (nothing ran); 3 when the window could not be measured as asked
 * (in {@code sampled} mode, without readable {@code cpu-clock} samples), its reason on standard error.
 */
public final class TrialMain {

    public static final int EXIT_OK = 0;
    public static final int EXIT_CALLS_FAILED = 1;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_NOT_MEASURED = 3;
    /** The argument before the spec that makes a driven trial. */
    public static final String DRIVEN = "--driven";

    private TrialMain() {
    }

    public static void main(String[] args) {
        System.exit(run(List.of(args), new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs one trial with {@code args} (a driven one reads commands from standard input); returns its exit status. */
    public static int run(List<String> args, PrintWriter out, PrintWriter err) {
        return run(args, new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), out, err);
    }

    /** Runs one trial with {@code args} (a driven one reads its commands from {@code in}); returns its exit status. */
    public static int run(List<String> args, BufferedReader in, PrintWriter out, PrintWriter err) {
        QuietLogging.apply();
        TrialSpec spec;
        KernelMeter kernel;
        boolean driven = !args.isEmpty() && args.get(0).equals(DRIVEN);
        try {
            if (args.size() != (driven ? 2 : 1)) {
                throw new IllegalArgumentException("takes one argument, the trial spec as JSON (after " + DRIVEN
                        + " for a driven trial); got " + args.size());
            }
            spec = TrialSpec.fromJson(args.get(driven ? 1 : 0));
            kernel = KernelMeter.fromSystemProperties();
        } catch (IllegalArgumentException e) {
            err.println("perflab trial: " + e.getMessage());
            return EXIT_USAGE;
        }
        if (driven) {
            return DrivenTrial.run(spec, kernel, in, out, err, System::nanoTime);
        }
        Map<String, String> environment = new LinkedHashMap<>(HostEnvironment.capture());
        RpcBenchResult result;
        try {
            result = new RpcBench(spec.engineOptions(), spec.workload(), ProcessMeter.forThisProcess(), kernel,
                    System::nanoTime, line -> err.println("perflab trial: " + line)).run();
        } catch (KernelMeter.SampledSplitException e) {
            err.println("perflab trial: " + e.getMessage());
            return EXIT_NOT_MEASURED;
        }
        environment.putAll(result.environment());
        if (result.requests() == 0) {
            err.println("perflab trial: no call completed in the measured window"
                    + (result.firstError() == null ? "" : "; first error: " + result.firstError()));
            return EXIT_CALLS_FAILED;
        }
        out.println(TrialProtocol.encode(result.metrics(), environment));
        out.flush();
        if (result.failedCalls() > 0) {
            err.println("perflab trial: " + result.failedCalls() + " calls failed in the measured window; first: "
                    + result.firstError());
            return EXIT_CALLS_FAILED;
        }
        return EXIT_OK;
    }
}
