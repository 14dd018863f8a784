package io.perflab.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code perflab serve [--name=value…]}: the web service; every argument is a Spring Boot property, passed to it.
 * Anything else ({@code extra}, {@code server.port=18080} without its dashes) is a usage error naming it: Spring
 * would ignore it and start on the default port.
 */
@Command(name = ServeCommand.NAME,
        description = "Start the web service (dashboard + REST API) on port 8080 with the embedded H2 database "
                + "under data/. Spring properties --name.part=value (a dotted name) such as --server.port=18080 or "
                + "--perflab.data-dir=/srv/perflab may follow.")
final class ServeCommand implements Callable<Integer> {

    static final String NAME = "serve";

    @ParentCommand
    private PerfLabCommand perflab;

    @Spec
    private CommandSpec spec;

    /** Options picocli does not know come here too (see {@link PerfLabCommand}), so that each is checked alike. */
    @Parameters(paramLabel = "--property=value", description = "Spring Boot properties", arity = "0..*")
    private List<String> properties = new ArrayList<>();

    @Override
    public Integer call() {
        for (String argument : properties) {
            String problem = PerfLabCommand.notAProperty(argument);
            if (problem != null) {
                throw new ParameterException(spec.commandLine(), problem);
            }
        }
        return perflab.serve(properties.toArray(String[]::new));
    }
}
