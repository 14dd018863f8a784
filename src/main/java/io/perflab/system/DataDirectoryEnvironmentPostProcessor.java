package io.perflab.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;

/**
 * Publishes {@code perflab.data-dir-absolute}: {@code perflab.data-dir} resolved against the working directory,
 * with the folder created on first use. The default H2 URL is built on it because H2 refuses implicitly relative
 * file paths. The value is computed when it is read, not when this runs, so property sources added later (test
 * properties, for instance) still count.
 */
public class DataDirectoryEnvironmentPostProcessor implements EnvironmentPostProcessor {

    static final String DATA_DIR = "perflab.data-dir";
    static final String ABSOLUTE = "perflab.data-dir-absolute";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        environment.getPropertySources().addLast(new AbsoluteDataDirectory(environment));
    }

    // The source object must not be the Environment itself: Boot's binder walks into property sources whose
    // source is an environment, which would loop forever.
    private static final class AbsoluteDataDirectory extends PropertySource<Object> {

        private final Environment environment;

        AbsoluteDataDirectory(Environment environment) {
            super("perflabDataDirectory", new Object());
            this.environment = environment;
        }

        @Override
        public Object getProperty(String name) {
            if (!ABSOLUTE.equals(name)) {
                return null;
            }
            String configured = environment.getProperty(DATA_DIR, "data");
            Path dir = Path.of(configured).toAbsolutePath().normalize();
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create the data directory " + dir + " (" + DATA_DIR + "="
                        + configured + "): " + e.getMessage(), e);
            }
            return dir.toString();
        }
    }
}
