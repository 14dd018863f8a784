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
        Database database = newDatabase();
        registry.add("spring.datasource.url", database::url);
        registry.add("spring.datasource.username", database::username);
        registry.add("spring.datasource.password", database::password);
    }

    /** A new, empty database of the shared server, which starts on first use. */
    public static synchronized Database newDatabase() {
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
                statement.execute("CREATE DATABASE " + name);
            }
            return new Database(server.getJdbcUrl("postgres", name), "postgres", "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("cannot create a test database: " + e.getMessage(), e);
        }
    }
}
