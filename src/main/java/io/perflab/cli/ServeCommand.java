package io.perflab.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Parameters;

/** {@code perflab serve [--name=value…]}: the web service; every argument is passed to Spring Boot. */
@Command(name = ServeCommand.NAME,
        description = "Start the web service (dashboard + REST API) on port 8080 with the embedded H2 database "
                + "under data/. Spring properties --name.part=value (a dotted name) such as --server.port=18080 or "
                + "--perflab.data-dir=/srv/perflab may follow.")
final class ServeCommand implements Runnable {

    static final String NAME = "serve";

    @ParentCommand
    private PerfLabCommand perflab;

    @Parameters(paramLabel = "--property=value", description = "Spring Boot properties", arity = "0..*")
    private List<String> properties = new ArrayList<>();

    @Override
    public void run() {
        perflab.serve(properties.toArray(String[]::new));
    }
}
