package io.perflab.system;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The version of this build, read from a resource that Maven fills in when it packages the jar. */
public final class PerfLabVersion {

    private static final String RESOURCE = "/io/perflab/version.properties";

    private static final String VERSION = load();

    private PerfLabVersion() {
    }

    /** Returns the project version, e.g. {@code 0.1.0-SNAPSHOT}. */
    public static String get() {
        return VERSION;
    }

    private static String load() {
        try (InputStream in = PerfLabVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the classpath: rebuild with ./mvnw");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }
}
