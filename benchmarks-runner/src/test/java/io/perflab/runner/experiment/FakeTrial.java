package io.perflab.runner.experiment;

import io.perflab.runner.trial.TrialProtocol;
import io.perflab.runner.trial.TrialSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * A stand-in trial JVM for the runner's tests: it reads the trial spec and behaves as the system property
 * {@value #BEHAVIOUR} says — {@code ok} (prints a result), {@code crash} (exits 3 after an error message),
 * {@code silent} (exits 0 without a result), {@code hang} (never ends). Driven ({@code --driven SPEC}), it speaks the
 * driven trial protocol at once, without a load: {@code ok} measures each window at the times it is told,
 * {@code crash} exits before it is ready, {@code crash-window-1} when told to measure window 1, {@code late-once}
 * starts the first window it is told 200 ms late, {@code negative-once} reports its first window's CPU per call below
 * zero, {@code negative-always} every window's, {@code hang} never says it is ready, {@code slow-exit} takes 3 s to
 * exit once told to.
 */
public final class FakeTrial {

    /** The system property that tells this trial what to do. */
    public static final String BEHAVIOUR = "fake.trial.behaviour";

    public static void main(String[] args) throws InterruptedException, IOException {
        String behaviour = System.getProperty(BEHAVIOUR, "ok");
        if (args[0].equals("--driven")) {
            driven(TrialSpec.fromJson(args[1]), behaviour);
            return;
        }
        TrialSpec spec = TrialSpec.fromJson(args[0]);
        System.out.println("some log line that is not a result");
        switch (behaviour) {
            case "ok" -> System.out.println(TrialProtocol.encode(
                    Map.of("reqs_per_sec", 1000.0 + ProcessHandle.current().pid() % 7),
                    Map.of("engine_options", spec.engineOptions().toString(),
                            "pid", Long.toString(ProcessHandle.current().pid()))));
            case "crash" -> crash("the engine fell over");
            case "silent" -> System.exit(0);
            case "hang" -> Thread.sleep(Long.MAX_VALUE);
            default -> throw new IllegalArgumentException("unknown behaviour " + behaviour);
        }
    }

    private static void driven(TrialSpec spec, String behaviour) throws IOException, InterruptedException {
        long pid = ProcessHandle.current().pid();
        System.out.println("some log line that is not a protocol line");
        switch (behaviour) {
            case "crash" -> crash("the engine fell over while warming up");
            case "hang" -> Thread.sleep(Long.MAX_VALUE);
            default -> { }
        }
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("pid", Long.toString(pid));
        environment.put("cpus_allowed", cpusAllowed());
        environment.put("engine_options", spec.engineOptions().toString());
        System.out.println(TrialProtocol.encodeReady(System.nanoTime(), environment));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        boolean paused = false;
        boolean late = behaviour.equals("late-once");
        boolean negative = behaviour.startsWith("negative-");
        String line;
        while ((line = in.readLine()) != null) {
            TrialProtocol.Command command = TrialProtocol.parseCommand(line);
            if (command.isWindow()) {
                if (behaviour.equals("crash-window-1") && command.window() == 1) {
                    crash("the engine fell over in window 1");
                }
                awaitUntil(command.startNanos() + (late ? 200_000_000L : 0));
                late = false;
                long start = System.nanoTime();
                awaitUntil(command.endNanos());
                Map<String, String> window = new LinkedHashMap<>();
                window.put("requests", "1000");
                window.put("failed_calls", "0");
                window.put("was_paused", Boolean.toString(paused));
                System.out.println(TrialProtocol.encodeWindow(command.window(), start, System.nanoTime(),
                        Map.of("cpu_us_per_req", (negative ? -1 : 1) * (30.0 + pid % 7), "reqs_per_sec", 1000.0),
                        window));
                negative = behaviour.equals("negative-always");
                paused = false;
            } else if (command.name().equals(TrialProtocol.PREPARE)) {
                System.out.println(TrialProtocol.PREPARED);
            } else if (command.name().equals(TrialProtocol.PAUSE)) {
                paused = true;
                System.out.println(TrialProtocol.PAUSED);
            } else {
                if (behaviour.equals("slow-exit")) {
                    Thread.sleep(3000);
                }
                System.exit(0);
            }
        }
        System.exit(1);
    }

    private static void crash(String message) {
        System.err.println("java.lang.IllegalStateException: " + message);
        System.exit(3);
    }

    private static String cpusAllowed() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("Cpus_allowed_list:")) {
                return line.substring(line.indexOf(':') + 1).trim();
            }
        }
        return "";
    }

    private static void awaitUntil(long deadline) {
        long remaining;
        while ((remaining = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(remaining);
        }
    }
}
