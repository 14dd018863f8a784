package io.perflab.experiment;

import com.zaxxer.hikari.HikariDataSource;
import io.perflab.system.Texts;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Live experiment events across the service instances of one PostgreSQL database, with {@code LISTEN/NOTIFY}: each
 * instance sends its events with {@code pg_notify} on channel {@value #CHANNEL} and listens there on a connection of
 * its own, handing what the others sent to its subscribers. On H2 (one process) it does nothing.
 *
 * <p>A notification is {@code {"origin":…,"experimentId":…,"name":…,"data":{…}}}; an instance skips its own, which
 * its subscribers already had. PostgreSQL takes payloads under 8,000 bytes: longer texts in an event (a trial's
 * error) are cut to {@value #MAX_TEXT} characters for the others — the experiment page shows them whole — and an
 * event still too long goes as its experiment id alone. A listener that loses its connection (the database
 * restarting, its backend terminated) connects and listens again, backing off; events published while it is down
 * are lost for this instance's live pages, and a reload shows the stored state. Over 300 lines because sending,
 * fitting a payload to PostgreSQL's limit, and the listening connection with its reconnects are one channel.
 */
@Repository
class ExperimentEventChannel implements SmartLifecycle {

    static final String CHANNEL = "perflab_experiment_events";
    static final int MAX_PAYLOAD_BYTES = 7_900;
    static final int MAX_TEXT = 500;

    private static final Logger log = LoggerFactory.getLogger(ExperimentEventChannel.class);
    private static final int POLL_MILLIS = 500;
    /** A listener that heard nothing for this many polls (30 s) checks that its connection still answers. */
    private static final int QUIET_POLLS_BEFORE_CHECK = 60;
    private static final int CHECK_TIMEOUT_SECONDS = 5;
    static final Duration FIRST_RECONNECT = Duration.ofMillis(100);
    static final Duration MAX_RECONNECT = Duration.ofSeconds(30);
    static final String APPLICATION_NAME = "perflab experiment events";

    private final ExperimentEvents events;
    private final DataSource dataSource;
    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final String origin = UUID.randomUUID().toString();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean running;
    private volatile Connection listening;
    private Thread listener;
    /** Failed attempts to listen since the connection was lost (0 while listening); the listener thread's own. */
    private int reconnectAttempts;

    ExperimentEventChannel(ExperimentEvents events, DataSource dataSource, JdbcClient jdbc, JsonMapper json) {
        this.events = events;
        this.dataSource = dataSource;
        this.jdbc = jdbc;
        this.json = json;
    }

    @Override
    public void start() {
        running = true;
        if (!onPostgres()) {
            return;
        }
        try {
            listening = listen();
        } catch (SQLException e) {
            log.warn("Cannot listen for the other instances' experiment events yet ({}); retrying, backing off from "
                    + "{} ms to {} s", e.getMessage(), FIRST_RECONNECT.toMillis(), MAX_RECONNECT.toSeconds());
            reconnectAttempts = 1;
        }
        listener = new Thread(this::receive, "experiment-events-listener");
        listener.setDaemon(true);
        listener.start();
        events.relayThrough(this::notifyOthers);
    }

    @Override
    public void stop() {
        running = false;
        events.relayThrough(ExperimentEvents.Relay.NONE);
        stopped.countDown();
        Thread thread = listener;
        if (thread != null) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        close(listening);
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /**
     * Starts before the agent coordinator and the scheduler, and stops after them: the experiments a starting
     * scheduler finds cut short by a crash are told to the other instances' pages, as INTERRUPTED.
     */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 2;
    }

    private boolean onPostgres() {
        try (Connection connection = dataSource.getConnection()) {
            return "PostgreSQL".equals(connection.getMetaData().getDatabaseProductName());
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot tell which database this is: " + e.getMessage(), e);
        }
    }

    /**
     * A connection of its own (not one of the pool's) that listens on the channel. TCP keep-alive and a check after
     * a quiet spell ({@link #receive}) find a connection that died without a word.
     */
    private Connection listen() throws SQLException {
        Connection connection;
        if (dataSource instanceof HikariDataSource hikari) {
            Properties properties = new Properties();
            properties.putAll(hikari.getDataSourceProperties());
            if (hikari.getUsername() != null) {
                properties.setProperty("user", hikari.getUsername());
            }
            if (hikari.getPassword() != null) {
                properties.setProperty("password", hikari.getPassword());
            }
            properties.setProperty("tcpKeepAlive", "true");
            properties.setProperty("ApplicationName", APPLICATION_NAME);
            connection = DriverManager.getConnection(hikari.getJdbcUrl(), properties);
        } else {
            connection = dataSource.getConnection();
        }
        try (Statement statement = connection.createStatement()) {
            connection.setAutoCommit(true);
            statement.execute("LISTEN " + CHANNEL);
            return connection;
        } catch (SQLException e) {
            close(connection);
            throw e;
        }
    }

    /**
     * Hands the notifications of the other instances to this one's subscribers until stopped. A lost connection is
     * logged once, when it is lost, then replaced: the first attempt after {@link #FIRST_RECONNECT}, each further one
     * after twice the wait before, at most {@link #MAX_RECONNECT}; listening again is logged once too. Nothing that
     * goes wrong here ends the thread or the service.
     */
    private void receive() {
        Duration backoff = FIRST_RECONNECT;
        int quietPolls = 0;
        while (running) {
            Connection connection = listening;
            try {
                if (connection == null) {
                    connection = listen();
                    listening = connection;
                    log.info("Listening again for the other instances' experiment events (attempt {}); what they "
                            + "sent meanwhile shows on a reload", reconnectAttempts);
                    reconnectAttempts = 0;
                    backoff = FIRST_RECONNECT;
                    quietPolls = 0;
                }
                PGNotification[] notifications = connection.unwrap(PGConnection.class).getNotifications(POLL_MILLIS);
                if (notifications != null && notifications.length > 0) {
                    quietPolls = 0;
                    for (PGNotification notification : notifications) {
                        received(notification.getParameter());
                    }
                } else if (++quietPolls >= QUIET_POLLS_BEFORE_CHECK) {
                    quietPolls = 0;
                    if (!connection.isValid(CHECK_TIMEOUT_SECONDS)) {
                        throw new SQLException("the connection gave no answer in " + CHECK_TIMEOUT_SECONDS + " s");
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (!running) {
                    return;
                }
                close(connection);
                listening = null;
                if (reconnectAttempts++ == 0) {
                    log.warn("Lost the listener of the other instances' experiment events ({}); reconnecting, first "
                            + "in {} ms, then backing off to every {} s", e.getMessage(), backoff.toMillis(),
                            MAX_RECONNECT.toSeconds());
                } else {
                    log.debug("Still cannot listen for the other instances' experiment events ({}); next attempt in "
                            + "{} ms", e.getMessage(), backoff.toMillis());
                }
                try {
                    stopped.await(backoff.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException interrupted) {
                    return;
                }
                backoff = backoff.compareTo(MAX_RECONNECT.dividedBy(2)) > 0 ? MAX_RECONNECT : backoff.multipliedBy(2);
            }
        }
    }

    /** The process id of the listener's PostgreSQL backend; -1 while there is none. */
    int listenerBackend() throws SQLException {
        Connection connection = listening;
        return connection == null ? -1 : connection.unwrap(PGConnection.class).getBackendPID();
    }

    /** Hands one notification of another instance to this instance's subscribers; ignores anything malformed. */
    void received(String payload) {
        try {
            JsonNode notification = json.readTree(payload);
            if (!notification.isObject() || origin.equals(notification.path("origin").asString(""))) {
                return;
            }
            JsonNode id = notification.get("experimentId");
            JsonNode name = notification.get("name");
            JsonNode data = notification.get("data");
            if (id == null || !id.canConvertToLong() || name == null || !name.isString() || data == null) {
                log.warn("Ignored a malformed experiment event notification");
                return;
            }
            events.deliver(id.asLong(), name.asString(), json.writeValueAsString(data));
        } catch (RuntimeException e) {
            log.warn("Ignored an experiment event notification that is not JSON: {}", e.getMessage());
        }
    }

    private void notifyOthers(long experimentId, String name, String data) {
        try {
            String payload = payload(experimentId, name, data);
            jdbc.sql("SELECT pg_notify(?, ?)").params(CHANNEL, payload).query((ResultSet rs) -> { });
        } catch (RuntimeException e) {
            // the event reached this instance's subscribers; the others' pages show it on their next reload
            log.warn("Could not send experiment {}'s '{}' event to the other instances: {}", experimentId, name,
                    e.getMessage());
        }
    }

    /** The notification of an event, made to fit PostgreSQL's payload limit. */
    String payload(long experimentId, String name, String data) {
        ObjectNode notification = json.createObjectNode();
        notification.put("origin", origin);
        notification.put("experimentId", experimentId);
        notification.put("name", name);
        JsonNode tree = json.readTree(data);
        notification.set("data", tree);
        String text = json.writeValueAsString(notification);
        if (fits(text)) {
            return text;
        }
        notification.set("data", cutTexts(tree));
        text = json.writeValueAsString(notification);
        if (fits(text)) {
            return text;
        }
        notification.set("data", json.createObjectNode().put("experimentId", experimentId));
        return json.writeValueAsString(notification);
    }

    private static boolean fits(String text) {
        return text.length() <= MAX_PAYLOAD_BYTES / 4
                || text.getBytes(StandardCharsets.UTF_8).length <= MAX_PAYLOAD_BYTES;
    }

    private JsonNode cutTexts(JsonNode node) {
        if (node.isString() && node.asString().length() > MAX_TEXT) {
            return json.getNodeFactory().textNode(Texts.cut(node.asString(), MAX_TEXT + 1));
        }
        if (node.isObject()) {
            ObjectNode copy = json.createObjectNode();
            node.properties().forEach(entry -> copy.set(entry.getKey(), cutTexts(entry.getValue())));
            return copy;
        }
        if (node.isArray()) {
            var copy = json.createArrayNode();
            node.forEach(element -> copy.add(cutTexts(element)));
            return copy;
        }
        return node;
    }

    private static void close(Connection connection) {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (SQLException e) {
            // closing a listener that is gone already
        }
    }
}
