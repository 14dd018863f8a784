package io.perflab.cli;

import io.perflab.system.PerfLabVersion;
import io.perflab.system.PrintableText;
import java.io.PrintWriter;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;

/**
 * The {@code perflab} command line: the top-level command and the dispatch between server and subcommands.
 *
 * <p>Subcommands are plain picocli commands that take their output streams from picocli, so tests call them
 * in-process without a Spring context.
 */
@Command(name = "perflab",
        mixinStandardHelpOptions = true,
        scope = CommandLine.ScopeType.INHERIT, // so every subcommand takes --help and --version too
        versionProvider = PerfLabCommand.Version.class,
        description = "Statistical A/B performance analysis of an RPC engine and of CI benchmarks.%n"
                + "With no subcommand, or with only Spring properties --name.part=value (a dotted name, such as "
                + "--server.port=18080), starts the web service.",
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:done",
                "1:a regression beyond --threshold (upload --fail-on-regression), a failed trial (bench) or too "
                        + "many failed trials (ab, peers, calibrate)",
                "2:a bad command line; the message names the flag. For the web service: a setting it cannot start "
                        + "with (a port out of range or in use, a data directory that is a file or in use)",
                "3:a server refused the request or could not be reached (upload, token, agent)",
                PerfLabCommand.EXIT_INTERNAL_ERROR + ":an internal error, said in one line; java -D"
                        + PerfLabCommand.DEBUG_PROPERTY + "=true -jar … adds its stack trace",
                PlanExecution.EXIT_OUT_NOT_WRITTEN + ":the --out file could not be written after the last trial (ab, "
                        + "peers, calibrate)",
                "130:interrupted (Ctrl-C)"},
        subcommands = {ServeCommand.class, BenchCommand.class, AbCommand.class, PeersCommand.class,
                CalibrateCommand.class, TrialCommand.class, CompareCommand.class, UploadCommand.class,
                TokenCommand.class, AgentCommand.class,
                CommandLine.HelpCommand.class})
public final class PerfLabCommand implements Runnable {

    /** Exit status for bad command-line input, as picocli and most Unix tools use. */
    public static final int EXIT_USAGE = 2;

    /** Exit status of a command that failed on something it did not expect (sysexits.h's EX_SOFTWARE). */
    public static final int EXIT_INTERNAL_ERROR = 70;

    /** The system property that adds the stack trace to an internal error's message. */
    public static final String DEBUG_PROPERTY = "perflab.debug";

    /**
     * A Spring property: {@code --name=value} whose name has a dot, as every property of Spring Boot and PerfLab does
     * ({@code server.port}, {@code perflab.data-dir}, {@code logging.level.io.perflab}). A name without one is a
     * mistyped flag ({@code --runs=5}) far more often than a property, and must not start the service.
     */
    static final Pattern PROPERTY = Pattern.compile("--[A-Za-z][\\w-]*(\\.[\\w\\[\\]-]+)+=.*",
            Pattern.DOTALL);

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /** Starts the web service with Spring arguments; the application's main supplies it. */
    private final Consumer<String[]> server;

    private PerfLabCommand(Consumer<String[]> server) {
        this.server = server;
    }

    /** {@code perflab serve}: hands the Spring arguments to the web service; its exit status. */
    int serve(String[] args) {
        return ServeCommand.start(server, args, spec.commandLine().getErr());
    }

    /**
     * Starts the web service with Spring's {@code args} through {@code server}: 0 once it runs, else the exit status
     * of a start that did not happen, said in one line on {@code err} ({@link ServeCommand#start}).
     */
    public static int serve(Consumer<String[]> server, String[] args, PrintWriter err) {
        return ServeCommand.start(server, args, err);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /**
     * Whether {@code args} ask for the web service: no argument, or only Spring properties with a dotted name such
     * as {@code --server.port=18080}, after an optional {@code serve}. Anything else ({@code --verison},
     * {@code --runs=5}, {@code serve --help}) goes to the command line, which names what it does not know.
     */
    public static boolean startsServer(String[] args) {
        return Arrays.stream(serverArguments(args)).allMatch(argument -> PROPERTY.matcher(argument).matches());
    }

    /**
     * Whether {@code arguments}, which picocli did not take, were meant for the web service: one of them is a
     * property, or a property without its dashes.
     */
    private static boolean startsServerButFor(List<String> arguments) {
        return arguments.stream().anyMatch(argument -> PROPERTY.matcher(argument).matches()
                || ServeCommand.UNDASHED_PROPERTY.matcher(argument).matches());
    }

    /** The Spring arguments of a server start: everything after an optional leading {@code serve}. */
    public static String[] serverArguments(String[] args) {
        if (args.length > 0 && ServeCommand.NAME.equals(args[0])) {
            return Arrays.copyOfRange(args, 1, args.length);
        }
        return args;
    }

    /**
     * Runs a subcommand and returns its exit status; writes to the process's standard streams.
     *
     * @param server starts the web service, for {@code perflab serve}
     */
    public static int execute(Consumer<String[]> server, String... args) {
        return commandLine(new PrintWriter(System.out, true), new PrintWriter(System.err, true), server)
                .execute(args);
    }

    /** The configured command line writing to the given streams, without a web service (tests pass their own). */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        return commandLine(out, err, args -> {
            throw new IllegalStateException("this command line has no web service to start");
        });
    }

    private static CommandLine commandLine(PrintWriter out, PrintWriter err, Consumer<String[]> server) {
        CommandLine commandLine = new CommandLine(new PerfLabCommand(server));
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setParameterExceptionHandler(PerfLabCommand::reportUsageError);
        commandLine.setExecutionExceptionHandler(PerfLabCommand::reportInternalError);
        // each argument of serve is checked as a property, those that look like options too
        commandLine.getSubcommands().get(ServeCommand.NAME).setUnmatchedOptionsArePositionalParams(true);
        plainConverters(commandLine);
        return commandLine;
    }

    /**
     * Converters of the standard types, for every command: they take what picocli's take, and say what a value must
     * be in words ("'soon' is not a whole number up to 2147483647") where picocli's name a Java type ("is not an
     * int").
     */
    private static void plainConverters(CommandLine commandLine) {
        CommandLine.ITypeConverter<Integer> wholeNumber = value -> parsed(value, Integer::valueOf,
                "a whole number up to " + Integer.MAX_VALUE);
        CommandLine.ITypeConverter<Long> longNumber = value -> parsed(value, Long::valueOf,
                "a whole number up to " + Long.MAX_VALUE);
        CommandLine.ITypeConverter<Double> number = value -> parsed(value, Double::valueOf, "a number");
        CommandLine.ITypeConverter<Boolean> trueOrFalse = value -> parsed(value, text -> {
            if (!"true".equalsIgnoreCase(text) && !"false".equalsIgnoreCase(text)) {
                throw new NumberFormatException(text);
            }
            return Boolean.valueOf(text);
        }, "true or false");
        commandLine.registerConverter(Integer.class, wholeNumber).registerConverter(int.class, wholeNumber)
                .registerConverter(Long.class, longNumber).registerConverter(long.class, longNumber)
                .registerConverter(Double.class, number).registerConverter(double.class, number)
                .registerConverter(Boolean.class, trueOrFalse).registerConverter(boolean.class, trueOrFalse)
                .registerConverter(Path.class, PerfLabCommand::path);
    }

    /**
     * A file or folder name as a {@link Path}. One the JVM cannot encode in its file-name encoding (any name beyond
     * ASCII where the locale is POSIX, as in many containers) was "cannot convert 'caf??.txt' to interface
     * java.nio.file.Path (java.nio.file.InvalidPathException: …)".
     */
    private static Path path(String value) {
        try {
            return Path.of(value);
        } catch (InvalidPathException e) {
            String encoding = System.getProperty("sun.jnu.encoding", "");
            boolean notUtf8 = !encoding.isEmpty() && !"UTF-8".equalsIgnoreCase(encoding);
            throw new CommandLine.TypeConversionException("'" + PrintableText.Validator.shown(value) + "' is not a "
                    + "file name this system can use: " + (value.indexOf('\0') >= 0 ? "it holds a NUL character"
                    : "its characters cannot be written in the encoding of file names" + (notUtf8 ? " (" + encoding
                    + " here; run with a UTF-8 locale, e.g. LANG=C.UTF-8)" : "")));
        }
    }

    private static <T> T parsed(String value, java.util.function.Function<String, T> parse, String expected) {
        try {
            return parse.apply(value);
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not " + expected);
        }
    }

    /** A value of a typed option, or its parser's message as picocli's "Invalid value for option …". */
    static <T> T converted(java.util.function.Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }

    private static int reportUsageError(CommandLine.ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        String message = ex.getMessage();
        if (ex instanceof CommandLine.UnmatchedArgumentException unmatched
                && cmd.getCommandSpec().parent() == null
                && !unmatched.getUnmatched().isEmpty()
                && !unmatched.getUnmatched().get(0).startsWith("-")) {
            message = "Unknown command '" + unmatched.getUnmatched().get(0) + "'.";
        }
        if (ex instanceof CommandLine.UnmatchedArgumentException unmatched
                && cmd.getCommandSpec().parent() == null && startsServerButFor(unmatched.getUnmatched())) {
            // perflab --server.port=18080 extra: the properties were taken for unknown options
            message = unmatched.getUnmatched().stream().map(ServeCommand::notAProperty)
                    .filter(java.util.Objects::nonNull).findFirst().orElse(message);
        }
        // a file name or value with a control character would act on the terminal, as it is
        err.println("perflab: " + PrintableText.Validator.shown(message));
        CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
        if (ex instanceof CommandLine.UnmatchedArgumentException unmatched && unmatched.getUnmatched().stream()
                .anyMatch(argument -> argument.startsWith("--"))
                && (cmd.getCommandSpec().parent() == null || ServeCommand.NAME.equals(cmd.getCommandName()))) {
            err.println("Properties of the web service are --name.part=value, e.g. --server.port=18080.");
        }
        err.println("Run '" + cmd.getCommandSpec().qualifiedName() + " --help' for the commands and options.");
        return EXIT_USAGE;
    }

    /**
     * An exception no command expected (a command's own mistakes are {@link CommandLine.ParameterException}s and exit
     * statuses): its message in one line and {@link #EXIT_INTERNAL_ERROR}, never a stack trace unless
     * {@value #DEBUG_PROPERTY} asks for it, nor status 1, which means "regressed" or "trials failed".
     */
    private static int reportInternalError(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
        PrintWriter err = cmd.getErr();
        String message = e.getMessage() == null || e.getMessage().isBlank() ? e.getClass().getSimpleName()
                : e.getMessage();
        err.println(cmd.getCommandSpec().qualifiedName() + ": internal error: "
                + PrintableText.Validator.shown(message));
        if (Boolean.getBoolean(DEBUG_PROPERTY)) {
            e.printStackTrace(err);
        } else {
            err.println("Run java -D" + DEBUG_PROPERTY + "=true -jar perflab.jar … for the stack trace, and report "
                    + "it with the command line.");
        }
        err.flush();
        return EXIT_INTERNAL_ERROR;
    }

    /** Supplies {@code --version}. */
    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"perflab " + PerfLabVersion.get(),
                    "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"};
        }
    }
}
