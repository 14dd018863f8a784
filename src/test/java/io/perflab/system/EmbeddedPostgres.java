package io.perflab.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * One real PostgreSQL (zonky's binaries from Maven) for every test class that runs against it, started on first
 * use and stopped when the test JVM exits. Each caller gets a database of its own, created fresh.
 */
public final class EmbeddedPostgres {

    private static io.zonky.test.db.postgres.embedded.EmbeddedPostgres server;
    private static int databases;

    private EmbeddedPostgres() {
    }

    /** Where a database of the shared server is, and who connects to it. */
    public record Database(String url, String username, String password) {
    }

    /** Points Spring's data source at a new, empty database of the shared server. */
    public static void register(DynamicPropertyRegistry registry) {
        register(registry, newDatabase());
    }

    /** Points Spring's data source at a new, empty database in the C locale ({@link #newDatabaseInTheCLocale}). */
    public static void registerInTheCLocale(DynamicPropertyRegistry registry) {
        register(registry, newDatabaseInTheCLocale());
    }

    private static void register(DynamicPropertyRegistry registry, Database database) {
        registry.add("spring.datasource.url", database::url);
        registry.add("spring.datasource.username", database::username);
        registry.add("spring.datasource.password", database::password);
    }

    /** A new, empty database of the shared server, which starts on first use. */
    public static Database newDatabase() {
        return newDatabase("");
    }

    /**
     * A new, empty database whose collation and character classes are the C locale's, where {@code LOWER('Ö')} is
     * {@code 'Ö'}: production databases are often created so, while the shared server takes its locale from the
     * environment (C.UTF-8 here), which knows the case of every letter.
     */
    public static Database newDatabaseInTheCLocale() {
        return newDatabase(" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'");
    }

    private static synchronized Database newDatabase(String options) {
        try {
            if (server == null) {
                server = io.zonky.test.db.postgres.embedded.EmbeddedPostgres.start();
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        server.close();
                    } catch (IOException e) {
                        // the JVM is exiting; the server's files are temporary
                    }
                }));
            }
            String name = "perflab_test_" + ++databases;
            try (var connection = server.getPostgresDatabase().getConnection();
                 var statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE " + name + options);
            }
            return new Database(server.getJdbcUrl("postgres", name), "postgres", "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("cannot create a test database: " + e.getMessage(), e);
        }
    }
}
