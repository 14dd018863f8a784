package io.perflab.runner.experiment;

import io.perflab.runner.trial.TrialProtocol;
import io.perflab.runner.trial.TrialSpec;
import java.util.Map;

/**
 * A stand-in trial JVM for the runner's tests: it reads the trial spec and behaves as the system property
 * {@value #BEHAVIOUR} says — {@code ok} (prints a result), {@code crash} (exits 3 after an error message),
 * {@code silent} (exits 0 without a result), {@code hang} (never ends).
 */
public final class FakeTrial {

    /** The system property that tells this trial what to do. */
    public static final String BEHAVIOUR = "fake.trial.behaviour";

    public static void main(String[] args) throws InterruptedException {
        TrialSpec spec = TrialSpec.fromJson(args[0]);
        String behaviour = System.getProperty(BEHAVIOUR, "ok");
        System.out.println("some log line that is not a result");
        switch (behaviour) {
            case "ok" -> System.out.println(TrialProtocol.encode(
                    Map.of("reqs_per_sec", 1000.0 + ProcessHandle.current().pid() % 7),
                    Map.of("engine_options", spec.engineOptions().toString(),
                            "pid", Long.toString(ProcessHandle.current().pid()))));
            case "crash" -> {
                System.err.println("java.lang.IllegalStateException: the engine fell over");
                System.exit(3);
            }
            case "silent" -> System.exit(0);
            case "hang" -> Thread.sleep(Long.MAX_VALUE);
            default -> throw new IllegalArgumentException("unknown behaviour " + behaviour);
        }
    }
}
