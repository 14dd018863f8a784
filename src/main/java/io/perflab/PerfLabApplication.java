package io.perflab;

import io.perflab.cli.PerfLabCommand;
import io.perflab.runner.trial.QuietLogging;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The PerfLab jar's single entry point.
 *
 * <p>With no argument, with {@code serve}, or with only Spring-style {@code --name=value} properties it starts
 * the web service; any other first argument is a subcommand handled by picocli without starting Spring, so that
 * {@code perflab --help} or a forked trial JVM stay fast and measure nothing but themselves.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class PerfLabApplication {

    public static void main(String[] args) {
        if (PerfLabCommand.startsServer(args)) {
            serve(PerfLabCommand.serverArguments(args));
        } else {
            QuietLogging.apply(); // a subcommand's output is its report: libraries log warnings only, to stderr
            System.exit(PerfLabCommand.execute(PerfLabApplication::serve, args));
        }
    }

    /** Starts the web service with Spring Boot; {@code args} are Spring command-line properties. */
    public static void serve(String[] args) {
        SpringApplication.run(PerfLabApplication.class, args);
    }
}
