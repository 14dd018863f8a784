package io.perflab.cli;

import io.perflab.system.DataDirectoryEnvironmentPostProcessor;
import io.perflab.system.PrintableText;
import io.perflab.system.StartupFailure;
import java.io.PrintWriter;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.regex.Pattern;
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
                + "--perflab.data-dir=/srv/perflab may follow.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:the web service started; it runs until stopped",
                PerfLabCommand.EXIT_USAGE + ":an argument that is not a property, or a setting the web service "
                        + "cannot start with (a port out of range or in use, a data directory that is a file or in "
                        + "use)",
                PerfLabCommand.EXIT_INTERNAL_ERROR + ":the web service did not start for another reason; the log "
                        + "says why"})
final class ServeCommand implements Callable<Integer> {

    static final String NAME = "serve";

    /** Spring Boot's property of the HTTP port. */
    static final String SERVER_PORT = "server.port";

    /**
     * A property of Spring without its dashes ({@code server.port=18080}), with one, or as a system property
     * ({@code -Dserver.port=18080}) after the jar: the name as {@link PerfLabCommand#PROPERTY}'s.
     */
    static final Pattern UNDASHED_PROPERTY = Pattern.compile("-?[A-Za-z][\\w-]*(\\.[\\w\\[\\]-]+)+=.*",
            Pattern.DOTALL);

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
            String problem = notAProperty(argument);
            if (problem != null) {
                throw new ParameterException(spec.commandLine(), problem);
            }
        }
        return perflab.serve(properties.toArray(String[]::new));
    }

    /**
     * Starts the web service with Spring's {@code args}: 0 once it runs, else the exit status of a start that did
     * not happen, said in one line on {@code err}. A port or data directory given among {@code args} is checked
     * first (exit status 2), before Spring creates the data directory's database and runs its migrations; a start
     * that fails on a setting from elsewhere (an environment variable, a data directory in use) is said as its
     * {@link StartupFailure} (2), with its stack trace where {@code -Dperflab.debug=true} asks for it. Any other
     * failure Spring reports itself (70).
     */
    static int start(Consumer<String[]> server, String[] args, PrintWriter err) {
        String problem = problemOfSettings(args);
        if (problem != null) {
            // a value or path with a control character would act on the terminal, as it is
            err.println("perflab: " + PrintableText.Validator.shown(problem));
            err.flush();
            return PerfLabCommand.EXIT_USAGE;
        }
        try {
            server.accept(args);
            return 0;
        } catch (RuntimeException e) {
            Optional<StartupFailure> failure = StartupFailure.of(e);
            if (failure.isEmpty()) {
                err.println("perflab: the web service did not start; the log above says why");
                err.flush();
                return PerfLabCommand.EXIT_INTERNAL_ERROR;
            }
            err.println("perflab: the web service did not start: "
                    + PrintableText.Validator.shown(failure.get().message()));
            if (Boolean.getBoolean(PerfLabCommand.DEBUG_PROPERTY)) {
                e.printStackTrace(err);
            }
            err.flush();
            return PerfLabCommand.EXIT_USAGE;
        }
    }

    /**
     * What is wrong with Spring's {@code args}, or null: a property given twice, which Spring joins with a comma (two
     * data directories made one of the name {@code /a,/b}), a port or a data directory out of bounds.
     */
    private static String problemOfSettings(String[] args) {
        Map<String, String> given = new HashMap<>();
        for (String argument : args) {
            int equals = argument.indexOf('=');
            if (argument.startsWith("--") && equals > 0) {
                String name = argument.substring(2, equals);
                String earlier = given.putIfAbsent(name, argument.substring(equals + 1));
                if (earlier != null) {
                    return "'--" + PrintableText.Validator.shown(name) + "' is given twice ('"
                            + PrintableText.Validator.shown(earlier) + "' and '"
                            + PrintableText.Validator.shown(argument.substring(equals + 1)) + "'), which Spring would "
                            + "take as one value joined by a comma; give it once (a list as one value: a,b)";
                }
            }
        }
        String port = lastValue(args, SERVER_PORT);
        // a placeholder such as ${PORT:8080} is Spring's to resolve
        if (port != null && !port.contains("${")) {
            try {
                int number = Integer.parseInt(port.strip());
                if (number < 0 || number > 65535) {
                    return "Invalid value for '--" + SERVER_PORT + "': port " + number + " is out of range (1–65535, "
                            + "or 0 for any free port)";
                }
            } catch (NumberFormatException e) {
                return "Invalid value for '--" + SERVER_PORT + "': '" + PrintableText.Validator.quoted(port)
                        + "' is not a port (1–65535, or 0 for any free port)";
            }
        }
        String dataDir = lastValue(args, DataDirectoryEnvironmentPostProcessor.DATA_DIR);
        if (dataDir != null && dataDir.isBlank()) {
            // taken for the working directory by the check, the start failed on the password file's stack trace
            return "Invalid value for '--" + DataDirectoryEnvironmentPostProcessor.DATA_DIR + "': it is empty; give a "
                    + "directory you may write, which is created if missing";
        }
        if (dataDir != null && !dataDir.contains("${")) {
            String problem;
            try {
                problem = DataDirectoryEnvironmentPostProcessor.problem(Path.of(dataDir).toAbsolutePath().normalize());
            } catch (InvalidPathException e) {
                problem = "'" + PrintableText.Validator.quoted(dataDir) + "' is not a path";
            }
            if (problem != null) {
                return "Invalid value for '--" + DataDirectoryEnvironmentPostProcessor.DATA_DIR + "': " + problem
                        + "; give a directory you may write, which is created if missing";
            }
        }
        return null;
    }

    /** The value of the last {@code --name=value} among {@code args}, or null. */
    private static String lastValue(String[] args, String name) {
        String value = null;
        for (String argument : args) {
            if (argument.startsWith("--" + name + "=")) {
                value = argument.substring(name.length() + 3);
            }
        }
        return value;
    }

    /**
     * Why {@code argument} is not a property of the web service, or null when it is one: a name without a dot
     * ({@code --runs=5}), a word, or a property without its dashes, for which the message has the property as meant.
     */
    static String notAProperty(String argument) {
        if (PerfLabCommand.PROPERTY.matcher(argument).matches()) {
            return null;
        }
        String problem = "'" + argument + "' is not a --name.part=value property of the web service";
        if (!UNDASHED_PROPERTY.matcher(argument).matches()) {
            return problem + " (a dotted name, e.g. --server.port=18080)";
        }
        // server.port=1, -server.port=1, or a system property's -Dserver.port=1 after the jar
        String name = argument.startsWith("-D") ? argument.substring(2)
                : argument.startsWith("-") ? argument.substring(1) : argument;
        return problem + "; did you mean --" + name + "?";
    }
}
