package io.perflab;

import io.perflab.cli.PerfLabCommand;
import io.perflab.runner.trial.QuietLogging;
import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The PerfLab jar's single entry point.
 *
 * <p>With no argument, or with only Spring properties {@code --name.part=value} (a dotted name, such as
 * {@code --server.port=18080}) after an optional {@code serve}, it starts the web service; anything else is a
 * subcommand handled by picocli without starting Spring, so that {@code perflab --help} or a forked trial JVM stay
 * fast and measure nothing but themselves, and a mistyped flag ({@code --verison}, {@code --runs=5}) is a usage
 * error rather than a server on port 8080.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class PerfLabApplication {

    public static void main(String[] args) {
        if (PerfLabCommand.startsServer(args)) {
            int status = PerfLabCommand.serve(PerfLabApplication::serve, PerfLabCommand.serverArguments(args),
                    new PrintWriter(System.err, true));
            if (status != 0) {
                System.exit(status);
            }
        } else {
            QuietLogging.apply(); // a subcommand's output is its report: libraries log warnings only, to stderr
            AtomicBoolean serving = new AtomicBoolean();
            int status = PerfLabCommand.execute(springArgs -> {
                serve(springArgs);
                serving.set(true);
            }, args);
            // perflab serve -- --server.port=…: the service runs, and exiting would stop it
            if (status != 0 || !serving.get()) {
                System.exit(status);
            }
        }
    }

    /** Starts the web service with Spring Boot; {@code args} are Spring command-line properties. */
    public static void serve(String[] args) {
        SpringApplication.run(PerfLabApplication.class, args);
    }
}
