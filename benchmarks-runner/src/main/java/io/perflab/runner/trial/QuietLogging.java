package io.perflab.runner.trial;

/**
 * Keeps library logging (Netty announces its settings at DEBUG) off a bench's standard output: points Logback,
 * when it is on the classpath, at a configuration that logs warnings and errors to standard error. Must run
 * before the first logger is created; an explicit {@code -Dlogback.configurationFile} wins.
 */
public final class QuietLogging {

    static final String PROPERTY = "logback.configurationFile";
    static final String CONFIGURATION = "io/perflab/runner/quiet-logback.xml";

    private QuietLogging() {
    }

    public static void apply() {
        if (System.getProperty(PROPERTY) == null) {
            System.setProperty(PROPERTY, CONFIGURATION);
        }
    }
}
