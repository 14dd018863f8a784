package io.perflab.system;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
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

    public static final String DATA_DIR = "perflab.data-dir";
    static final String ABSOLUTE = "perflab.data-dir-absolute";
    /** The environment variable of {@link #DATA_DIR}, for messages. */
    static final String DATA_DIR_VARIABLE = "PERFLAB_DATA_DIR";

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
            String problem = problem(dir);
            if (problem != null) {
                throw new DataDirectoryException(problem + "; give --" + DATA_DIR + " (or " + DATA_DIR_VARIABLE
                        + ") a directory you may write, which is created if missing");
            }
            return dir.toString();
        }
    }

    /**
     * What is wrong with {@code dir} as the data directory, creating it if missing; null when nothing is. The
     * messages name the folder and what is in the way, never an exception's class (FileAlreadyExistsException's
     * message is only the path).
     */
    public static String problem(Path dir) {
        for (Path folder = dir; folder != null && !Files.isDirectory(folder); folder = folder.getParent()) {
            if (Files.exists(folder)) {
                return folder.equals(dir) ? "the data directory " + dir + " is a file"
                        : "cannot create the data directory " + dir + ": " + folder + " is a file";
            }
        }
        try {
            Files.createDirectories(dir);
            return null;
        } catch (AccessDeniedException e) {
            return "cannot create the data directory " + dir + ": permission denied on " + e.getFile();
        } catch (FileSystemException e) {
            return "cannot create the data directory " + dir + ": " + (e.getReason() != null ? e.getReason()
                    : e.getFile());
        } catch (IOException e) {
            return "cannot create the data directory " + dir + ": " + e.getMessage();
        }
    }
}
