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

    /** Points Spring's data source at a new, empty database of the shared server. */
    public static synchronized void register(DynamicPropertyRegistry registry) {
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
            String url = server.getJdbcUrl("postgres", name);
            registry.add("spring.datasource.url", () -> url);
            registry.add("spring.datasource.username", () -> "postgres");
            registry.add("spring.datasource.password", () -> "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("cannot create a test database: " + e.getMessage(), e);
        }
    }
}
