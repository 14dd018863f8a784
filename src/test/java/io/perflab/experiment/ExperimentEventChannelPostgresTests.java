package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import com.zaxxer.hikari.HikariDataSource;
import io.perflab.system.EmbeddedPostgres;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The channel of two service instances on one real PostgreSQL: a listener whose connection is lost (its backend
 * terminated, as a database restart or an operator does) listens again on a new one, and the events published
 * after that reach it.
 */
class ExperimentEventChannelPostgresTests {

    private final JsonMapper json = JsonMapper.builder().build();
    private HikariDataSource databaseOfOne;
    private HikariDataSource databaseOfTwo;
    private ExperimentEventChannel one;
    private ExperimentEventChannel two;
    private final Received receivedByOne = new Received();
    private final ExperimentEvents eventsOfTwo = new ExperimentEvents();

    /** Keeps what reaches this instance's subscribers. */
    private static final class Received extends ExperimentEvents {
        final BlockingQueue<String> events = new LinkedBlockingQueue<>();

        @Override
        void deliver(long experimentId, String name, String data) {
            events.add(experimentId + " " + name + " " + data);
        }
    }

    @BeforeEach
    void startTwoInstances() {
        EmbeddedPostgres.Database database = EmbeddedPostgres.newDatabase();
        databaseOfOne = pool(database);
        databaseOfTwo = pool(database);
        one = new ExperimentEventChannel(receivedByOne, databaseOfOne, JdbcClient.create(databaseOfOne), json);
        two = new ExperimentEventChannel(eventsOfTwo, databaseOfTwo, JdbcClient.create(databaseOfTwo), json);
        one.start();
        two.start();
    }

    private static HikariDataSource pool(EmbeddedPostgres.Database database) {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(database.url());
        pool.setUsername(database.username());
        pool.setPassword(database.password());
        pool.setMaximumPoolSize(2);
        return pool;
    }

    @AfterEach
    void stop() {
        two.stop();
        one.stop();
        databaseOfTwo.close();
        databaseOfOne.close();
    }

    @Test
    void anEventOfOneInstanceReachesTheOther() throws Exception {
        eventsOfTwo.publish(7, "status", Map.of("status", "RUNNING"));

        assertThat(receivedByOne.events.poll(10, TimeUnit.SECONDS)).isEqualTo("7 status {\"status\":\"RUNNING\"}");
    }

    @Test
    void aListenerWhoseBackendIsTerminatedListensAgainAndEventsPublishedAfterwardsArrive() throws Exception {
        int backend = one.listenerBackend();
        JdbcClient operator = JdbcClient.create(databaseOfTwo);

        assertThat(operator.sql("SELECT pg_terminate_backend(?)").param(backend).query(Boolean.class).single())
                .isTrue();

        assertThat(publishUntilOneArrives()).startsWith("8 run {\"ordinal\":");
        assertThat(one.listenerBackend()).isNotEqualTo(backend);
        assertThat(one.isRunning()).isTrue();
        eventsOfTwo.publish(9, "status", Map.of("status", "COMPLETED"));
        String last;
        do {
            // the rest of the events published while waiting come first
            last = receivedByOne.events.poll(5, TimeUnit.SECONDS);
        } while (last != null && last.startsWith("8 run"));
        assertThat(last).isEqualTo("9 status {\"status\":\"COMPLETED\"}");
    }

    @Test
    void aListenerThatCannotConnectForAWhileLogsTheLossOnceBacksOffAndListensOnceItCan() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger(ExperimentEventChannel.class);
        Level level = logger.getLevel();
        List<ILoggingEvent> logged = new CopyOnWriteArrayList<>();
        CountDownLatch failedAttempts = new CountDownLatch(3);
        AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent event) {
                logged.add(event);
                if (event.getFormattedMessage().startsWith("Still cannot listen")) {
                    failedAttempts.countDown();
                }
            }
        };
        appender.start();
        logger.addAppender(appender);
        logger.setLevel(Level.DEBUG);
        String database = JdbcClient.create(databaseOfTwo).sql("SELECT current_database()").query(String.class)
                .single();
        // a database refuses new connections only when asked from another one
        JdbcClient operator = JdbcClient.create(new DriverManagerDataSource(
                databaseOfTwo.getJdbcUrl().replace("/" + database + "?", "/postgres?"), databaseOfTwo.getUsername(),
                databaseOfTwo.getPassword()));
        try {
            operator.sql("ALTER DATABASE " + database + " ALLOW_CONNECTIONS false").update();
            operator.sql("SELECT pg_terminate_backend(?)").param(one.listenerBackend()).query(Boolean.class).single();
            assertThat(failedAttempts.await(10, TimeUnit.SECONDS)).as("three failed attempts to connect").isTrue();

            operator.sql("ALTER DATABASE " + database + " ALLOW_CONNECTIONS true").update();

            assertThat(publishUntilOneArrives()).startsWith("8 run {\"ordinal\":");
        } finally {
            operator.sql("ALTER DATABASE " + database + " ALLOW_CONNECTIONS true").update();
            logger.detachAppender(appender);
            logger.setLevel(level);
        }
        assertThat(logged).filteredOn(event -> event.getLevel().isGreaterOrEqual(Level.INFO))
                .extracting(ILoggingEvent::getFormattedMessage)
                .satisfiesExactly(
                        lost -> assertThat(lost).startsWith("Lost the listener of the other instances' experiment "
                                + "events (FATAL: terminating connection due to administrator command)"),
                        back -> assertThat(back).startsWith("Listening again for the other instances' experiment "
                                + "events (attempt ").doesNotContain("(attempt 1)", "(attempt 2)", "(attempt 3)"));
    }

    /** Events published while the listener is down are lost (the class says so): publishes until one arrives. */
    private String publishUntilOneArrives() throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            eventsOfTwo.publish(8, "run", Map.of("ordinal", i));
            String received = receivedByOne.events.poll(100, TimeUnit.MILLISECONDS);
            if (received != null) {
                return received;
            }
        }
        throw new AssertionError("no event arrived within 10 s");
    }
}
