package io.perflab.runner.trial;

import io.perflab.runner.metering.KernelMeter;
import io.perflab.runner.metering.ProcessMeter;
import io.perflab.runner.rpcbench.RpcBench;
import io.perflab.runner.rpcbench.RpcBenchResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The body of a driven trial JVM, one of a pair of a paired design ({@code perflab trial --driven SPEC}): it warms
 * up, says so, then measures the windows the runner asks for at the times it gives, pauses when told and exits
 * when told ({@link TrialProtocol}). A window with failed calls is reported like any other; the runner judges it.
 * Each window records how late after the given instant it started ({@code window_start_late_ms}): what the skew
 * between the two JVMs of a duet is made of.
 */
final class DrivenTrial {

    private DrivenTrial() {
    }

    /**
     * Runs the trial until {@code exit} or the end of {@code in}.
     *
     * @return {@link TrialMain#EXIT_OK} after {@code exit}, {@link TrialMain#EXIT_USAGE} for a line that is no
     *     command, {@link TrialMain#EXIT_CALLS_FAILED} when the runner went away without {@code exit},
     *     {@link TrialMain#EXIT_NOT_MEASURED} when a window could not be sampled in {@code sampled} mode
     */
    static int run(TrialSpec spec, KernelMeter kernel, BufferedReader in, PrintWriter out, PrintWriter err,
                   LongSupplier nanoClock) {
        RpcBench bench = new RpcBench(spec.engineOptions(), spec.workload(), ProcessMeter.forThisProcess(), kernel,
                nanoClock, line -> err.println("perflab trial: " + line));
        // read before the load starts, as a fresh trial reads it: its own client threads are not the host's load
        Map<String, String> environment = new LinkedHashMap<>(HostEnvironment.capture());
        try (RpcBench.Session session = bench.open()) {
            environment.putAll(session.warmUp());
            out.println(TrialProtocol.encodeReady(nanoClock.getAsLong(), environment));
            out.flush();
            String line;
            while ((line = in.readLine()) != null) {
                TrialProtocol.Command command;
                try {
                    command = TrialProtocol.parseCommand(line);
                } catch (IllegalArgumentException e) {
                    err.println("perflab trial: " + e.getMessage());
                    return TrialMain.EXIT_USAGE;
                }
                if (command.isWindow()) {
                    RpcBench.Measured measured = session.measure(command.startNanos(), command.endNanos());
                    RpcBenchResult result = measured.result();
                    Map<String, String> window = new LinkedHashMap<>(result.environment());
                    window.put("window_start_late_ms", String.format(Locale.ROOT, "%.3f",
                            (measured.startNanos() - command.startNanos()) / 1e6));
                    out.println(TrialProtocol.encodeWindow(command.window(), measured.startNanos(),
                            measured.startNanos() + result.window().elapsedNanos(), result.metrics(), window));
                } else if (command.name().equals(TrialProtocol.PREPARE)) {
                    session.prepare();
                    out.println(TrialProtocol.PREPARED);
                } else if (command.name().equals(TrialProtocol.PAUSE)) {
                    session.pause();
                    out.println(TrialProtocol.PAUSED);
                } else {
                    return TrialMain.EXIT_OK;
                }
                out.flush();
            }
            err.println("perflab trial: the runner closed the trial's input without 'exit'");
            return TrialMain.EXIT_CALLS_FAILED;
        } catch (IOException e) {
            err.println("perflab trial: cannot read the runner's commands: " + e.getMessage());
            return TrialMain.EXIT_CALLS_FAILED;
        } catch (KernelMeter.SampledSplitException e) {
            err.println("perflab trial: " + e.getMessage());
            return TrialMain.EXIT_NOT_MEASURED;
        }
    }
}
