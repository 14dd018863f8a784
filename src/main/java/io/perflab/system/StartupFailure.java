package io.perflab.system;

import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.web.server.PortInUseException;

/**
 * A start of the web service that failed on one of its settings, said in the user's terms: a data directory that is
 * a file, cannot be created or is in use by another service, an HTTP port out of range or in use, a setting of true
 * or false that is neither ({@code perflab.trials.raw-jvm-flags=maybe}), settings that contradict each other
 * ({@link SettingException}). Spring reports
 * such a failure as a stack trace of the beans it was creating, naming {@code spring.datasource.url} or Tomcat's
 * connector; the cause that says what is wrong lies deep inside.
 *
 * @param message what is wrong and what to do, in one line
 */
public record StartupFailure(String message) {

    /**
     * H2's error code for a database whose file another process holds ({@code DATABASE_ALREADY_OPEN_1}), which every
     * message of H2 ends with, with H2's build: {@code […] [90020-240]}. The message is read rather than the
     * SQLException's code, which would make this class a JDBC client (see ArchitectureTests).
     */
    static final int H2_DATABASE_IN_USE = 90020;

    private static final Pattern H2_IN_USE = Pattern.compile("\\[" + H2_DATABASE_IN_USE + "-\\d+\\]");

    /** The database file in H2's message: {@code Database may be already in use: "/srv/perflab/perflab.mv.db"}. */
    private static final Pattern H2_FILE = Pattern.compile("\"([^\"]+)\\.mv\\.db\"");

    /** {@link java.net.InetSocketAddress}'s message for a port beyond 65535, which Tomcat passes on. */
    private static final Pattern PORT_OUT_OF_RANGE = Pattern.compile("port out of range:\\s*(-?\\d+)");

    /** How deep to look for the cause: far more than Spring nests, and an end to a chain that loops. */
    private static final int MAX_DEPTH = 64;

    /** What {@code failure}, thrown by a start, says of a setting, from the first of its causes that says it. */
    public static Optional<StartupFailure> of(Throwable failure) {
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < MAX_DEPTH; depth++, cause = cause.getCause()) {
            Optional<String> said = said(cause);
            if (said.isPresent()) {
                return said.map(StartupFailure::new);
            }
        }
        return Optional.empty();
    }

    private static Optional<String> said(Throwable cause) {
        if (cause instanceof DataDirectoryException || cause instanceof SettingException) {
            return Optional.of(cause.getMessage());
        }
        if (cause instanceof BindException bind && bind.getProperty() != null && isBoolean(bind.getTarget())) {
            // Spring's report of it is a dozen lines, headed "Failed to bind properties under …"
            return Optional.of(bind.getName() + ": '" + PrintableText.Validator.quoted(
                    String.valueOf(bind.getProperty().getValue())) + "' is neither true nor false");
        }
        if (cause instanceof PortInUseException inUse) {
            return Optional.of("port " + inUse.getPort() + " is in use by another process; stop it or give "
                    + "--server.port another port");
        }
        String message = cause.getMessage() == null ? "" : cause.getMessage();
        if (H2_IN_USE.matcher(message).find()) {
            Matcher file = H2_FILE.matcher(message);
            Path directory = file.find() ? Path.of(file.group(1)).getParent() : null;
            return Optional.of((directory == null ? "the data directory" : "the data directory " + directory)
                    + " is in use by another PerfLab service (its database is locked); stop it or give "
                    + "--perflab.data-dir another directory");
        }
        if (cause instanceof IllegalArgumentException) {
            Matcher port = PORT_OUT_OF_RANGE.matcher(message);
            if (port.find()) {
                return Optional.of("server.port " + port.group(1) + " is out of range (1–65535, or 0 for any free "
                        + "port)");
            }
        }
        return Optional.empty();
    }

    private static boolean isBoolean(Bindable<?> target) {
        Class<?> type = target.getType().resolve();
        return type == boolean.class || type == Boolean.class;
    }
}
