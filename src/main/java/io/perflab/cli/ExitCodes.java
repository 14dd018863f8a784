package io.perflab.cli;

/**
 * The lines of the "Exit status" section of the commands' help, shared where commands exit alike. Each command lists
 * only the statuses it can exit with: picocli lets a subcommand inherit the top-level command's list, which names
 * every command's statuses ({@code --threshold}, a failed trial, an --out file) whatever the command.
 */
final class ExitCodes {

    static final String HEADING = "Exit status:%n";

    static final String DONE = "0:done";

    static final String USAGE = PerfLabCommand.EXIT_USAGE + ":a bad command line; the message names the flag";

    static final String SERVER = ServerOptions.EXIT_SERVER_ERROR + ":the server refused the request or could not be "
            + "reached";

    static final String INTERNAL = PerfLabCommand.EXIT_INTERNAL_ERROR + ":an internal error, said in one line; java -D"
            + PerfLabCommand.DEBUG_PROPERTY + "=true -jar … adds its stack trace";

    static final String TOO_MANY_FAILURES = PlanExecution.EXIT_TOO_MANY_FAILURES + ":too many failed trials "
            + "(--max-failures)";

    static final String OUT_NOT_WRITTEN = PlanExecution.EXIT_OUT_NOT_WRITTEN + ":the --out file could not be written "
            + "after the last trial";

    static final String INTERRUPTED = PlanExecution.EXIT_CANCELLED + ":interrupted (Ctrl-C)";

    private ExitCodes() {
    }
}
