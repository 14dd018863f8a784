package io.perflab.experiment;

import io.perflab.agent.HostCounts;
import io.perflab.agent.HostLabels;
import io.perflab.agent.HostPlatform;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** Registered agents in table {@code agent} ({@code V10__agents.sql}): who they are, their heartbeats, their work. */
@Repository
public class AgentRepository {

    /** The agents page and API list at most this many, newest first. */
    static final int MAX_LISTED = 200;

    /**
     * The statuses of an agent that is no longer live: LOST (its heartbeat timed out) and LEFT (it said it stopped).
     * Either is final for that registration: it heartbeats, claims and posts no more, and its host registers again.
     */
    static final String GONE = "('LOST', 'LEFT')";

    /**
     * The experiment an agent runs now is the one it holds, and it is RUNNING while it holds one, read from the claims
     * themselves: every claim and every end of one shows at once, the built-in agent's (which claims without a poll)
     * and the watch's of a lost agent alike, as columns written beside remote agents' polls and finishes did not.
     * The table's own {@code status} says IDLE, LOST or LEFT.
     */
    private static final String COLUMNS = "id, name, labels, built_in, runs_commands, host, environment, os_name, "
            + "os_arch, hardware_counters, system_calls, registered_by, registered_by_token, registered_at, "
            + "last_heartbeat, "
            + "CASE WHEN agent.status IN " + GONE + " THEN agent.status WHEN EXISTS (SELECT 1 FROM experiment e "
            + "WHERE e.agent_id = agent.id AND e.status = 'RUNNING') THEN 'RUNNING' ELSE 'IDLE' END AS status, "
            + "(SELECT MIN(e.id) FROM experiment e WHERE e.agent_id = agent.id AND e.status = 'RUNNING') "
            + "AS experiment_id";

    private final JdbcClient jdbc;
    private final JsonMapper json;

    AgentRepository(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /**
     * Registers an agent, heartbeating now; returns its id. A remote agent gets a new id each time it registers;
     * a built-in agent keeps the id of the built-in agent of its name, so that a restarted service knows which
     * experiments its scheduler left running.
     *
     * @param registeredBy who registers it, for people: a token's ({@code token:NAME}) or a user's name
     * @param registeredByToken the id of the stored API token it registers with, which alone may act as it (with an
     *     administrator); null for a user, the bootstrap token or a built-in agent
     * @param environment its host environment, whose platform ({@link HostPlatform#registered}) is kept beside it
     * @param counts what it says of the counts its trials make only where the host allows them; null for each it
     *     does not say
     */
    @Transactional
    public long register(String name, HostLabels labels, boolean builtIn, boolean runsCommands, String host,
                         Map<String, String> environment, HostCounts counts, String registeredBy,
                         Long registeredByToken, Instant now) {
        String environmentJson = json.writeValueAsString(environment);
        Optional<HostPlatform> platform = HostPlatform.registered(environment);
        String osName = platform.map(HostPlatform::osName).orElse(null);
        String osArch = platform.map(HostPlatform::osArch).orElse(null);
        if (builtIn) {
            Optional<Long> known = jdbc.sql("SELECT id FROM agent WHERE name = ? AND built_in = TRUE ORDER BY id "
                    + "FETCH FIRST 1 ROWS ONLY").param(name).query(Long.class).optional();
            if (known.isPresent()) {
                jdbc.sql("""
                        UPDATE agent SET labels = ?, runs_commands = ?, host = ?, environment = ?, os_name = ?,
                            os_arch = ?, hardware_counters = ?, system_calls = ?, registered_by = ?,
                            registered_by_token = ?,
                            registered_at = ?, last_heartbeat = CURRENT_TIMESTAMP, status = 'IDLE',
                            experiment_id = NULL
                        WHERE id = ?""")
                        .params(labels.canonical(), runsCommands, host, environmentJson, osName, osArch,
                                counts.hardwareCounters(), counts.systemCalls(), registeredBy, registeredByToken,
                                ExperimentRepository.timestamp(now), known.get())
                        .update();
                return known.get();
            }
        }
        GeneratedKeyHolder keys = new GeneratedKeyHolder();
        jdbc.sql("""
                INSERT INTO agent (name, labels, built_in, runs_commands, host, environment, os_name, os_arch,
                    hardware_counters, system_calls, registered_by, registered_by_token, registered_at,
                    last_heartbeat, status)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP, 'IDLE')""")
                .params(name, labels.canonical(), builtIn, runsCommands, host, environmentJson, osName, osArch,
                        counts.hardwareCounters(), counts.systemCalls(), registeredBy, registeredByToken,
                        ExperimentRepository.timestamp(now))
                .update(keys, "id");
        return keys.getKey().longValue();
    }

    /** The built-in agent named {@code name}, if there is one. */
    public Optional<AgentRecord> findBuiltIn(String name) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM agent WHERE name = ? AND built_in = TRUE ORDER BY id "
                + "FETCH FIRST 1 ROWS ONLY").param(name).query(this::agent).optional();
    }

    /**
     * Marks built-in agent {@code id} lost as its service stops, unless it still holds a running experiment (the
     * watch of another instance ends that claim): it heartbeats no more, and a service that starts with its name
     * need not wait to see whether another instance runs it.
     */
    public void retireBuiltIn(long id) {
        jdbc.sql("""
                UPDATE agent SET status = 'LOST' WHERE id = ? AND built_in = TRUE
                    AND NOT EXISTS (SELECT 1 FROM experiment e WHERE e.agent_id = ? AND e.status = 'RUNNING')""")
                .params(id, id).update();
    }

    /**
     * The database's time. Heartbeats are stamped with it, and the watch that declares agents lost compares with it:
     * the service instances that take heartbeats and the one that watches may have clocks apart, and one running
     * ahead by more than the timeout declared every live agent lost.
     */
    public Instant databaseNow() {
        return jdbc.sql("SELECT CURRENT_TIMESTAMP").query((rs, row) -> rs.getObject(1, java.time.OffsetDateTime.class)
                .toInstant()).single();
    }

    /**
     * Records a heartbeat at the database's time; false if the agent is unknown, was declared lost or left (it must
     * register again).
     */
    public boolean heartbeat(long id) {
        return jdbc.sql("UPDATE agent SET last_heartbeat = CURRENT_TIMESTAMP WHERE id = ? AND status NOT IN " + GONE)
                .param(id).update() == 1;
    }

    /**
     * Marks remote agent {@code id} as left: it was stopped and said so. It heartbeats, claims and posts no more, as
     * a lost agent does not. False if it was lost or had left already.
     */
    public boolean leave(long id) {
        return jdbc.sql("UPDATE agent SET status = 'LEFT' WHERE id = ? AND built_in = FALSE AND status NOT IN "
                + GONE).param(id).update() == 1;
    }

    /**
     * Records a heartbeat of a built-in agent from the service it runs in. One declared lost (its service stalled
     * longer than the timeout, and another instance interrupted its experiments) heartbeats again, idle: it holds
     * nothing now, and claims again. Returns whether it was lost.
     */
    @Transactional
    public boolean heartbeatBuiltIn(long id) {
        boolean revived = jdbc.sql("UPDATE agent SET last_heartbeat = CURRENT_TIMESTAMP, status = 'IDLE', "
                        + "experiment_id = NULL WHERE id = ? AND built_in = TRUE AND status = 'LOST'")
                .param(id).update() == 1;
        if (!revived) {
            heartbeat(id);
        }
        return revived;
    }

    public Optional<AgentRecord> find(long id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM agent WHERE id = ?").param(id).query(this::agent).optional();
    }

    /**
     * Every agent that heartbeats, then the lost and the left ones, newest first within each; at most
     * {@value #MAX_LISTED}.
     */
    public List<AgentRecord> list() {
        return list(0, MAX_LISTED);
    }

    /** Page {@code page} (from 0) of {@code size} of the agents in {@link #list()}'s order. */
    public List<AgentRecord> list(int page, int size) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM agent ORDER BY CASE WHEN agent.status IN " + GONE
                        + " THEN 1 ELSE 0 END, agent.id DESC OFFSET ? ROWS FETCH NEXT ? ROWS ONLY")
                .params((long) page * size, size).query(this::agent).list();
    }

    public long count() {
        return jdbc.sql("SELECT COUNT(*) FROM agent").query(Long.class).single();
    }

    /** The agents of {@code ids}, by id. */
    public Map<Long, AgentRecord> byIds(java.util.Collection<Long> ids) {
        Map<Long, AgentRecord> agents = new java.util.LinkedHashMap<>();
        for (long id : ids) {
            find(id).ifPresent(a -> agents.put(id, a));
        }
        return agents;
    }

    /** Agents that heartbeat no more: neither lost yet nor left, with their last heartbeat before {@code cutoff}. */
    public List<Long> silentSince(Instant cutoff) {
        return jdbc.sql("SELECT id FROM agent WHERE status NOT IN " + GONE + " AND last_heartbeat < ? ORDER BY id")
                .param(ExperimentRepository.timestamp(cutoff)).query(Long.class).list();
    }

    /**
     * Lost or left agents, silent since {@code cutoff}, that still hold a running experiment: the claims of an agent
     * are ended after it is declared lost (or leaves), in statements of their own, and an instance that stopped in
     * between (a crash, a database error) left them to whichever watch looks next.
     */
    public List<Long> lostHolding(Instant cutoff) {
        return jdbc.sql("""
                SELECT DISTINCT a.id FROM agent a JOIN experiment e ON e.agent_id = a.id
                WHERE a.status IN %s AND a.last_heartbeat < ? AND e.status = 'RUNNING' ORDER BY a.id"""
                        .formatted(GONE))
                .param(ExperimentRepository.timestamp(cutoff)).query(Long.class).list();
    }

    /**
     * Declares an agent lost if it is still silent since {@code cutoff}; false if it heartbeat meanwhile, left, or
     * another service instance declared it first.
     */
    public boolean declareLost(long id, Instant cutoff) {
        return jdbc.sql("UPDATE agent SET status = 'LOST' WHERE id = ? AND status NOT IN " + GONE
                        + " AND last_heartbeat < ?")
                .params(id, ExperimentRepository.timestamp(cutoff)).update() == 1;
    }

    /**
     * The registered hosts as a claim tells them apart: by their labels, whether they run command experiments, their
     * platform and what their trials count of the counts a host may refuse.
     *
     * @param platform the platform their agents registered; null for none
     * @param counts what their agents said of system calls and hardware counters; null for each they did not say
     * @param lastHeartbeat the latest heartbeat of any of their agents
     * @param live whether one of their agents is live: neither declared lost nor left, and heard since the cutoff
     *     asked for
     */
    public record HostGroup(HostLabels labels, boolean runsCommands, HostPlatform platform, HostCounts counts,
                            Instant lastHeartbeat, boolean live) {

        /** A host of this group as the queue sees it when it claims. */
        Claimant claimant() {
            return new Claimant(null, labels, false, runsCommands, platform, counts);
        }
    }

    /**
     * Every group of registered hosts ({@link HostGroup}), live meaning heard since {@code cutoff} (by the database's
     * clock, as the watch judges them). Grouped in the database: a remote agent is a new row each time it registers.
     */
    public List<HostGroup> hostGroups(Instant cutoff) {
        return jdbc.sql("""
                SELECT labels, runs_commands, os_name, os_arch, hardware_counters, system_calls,
                    MAX(last_heartbeat) AS last_heartbeat,
                    MAX(CASE WHEN status NOT IN %s AND last_heartbeat >= ? THEN 1 ELSE 0 END) AS any_live
                FROM agent GROUP BY labels, runs_commands, os_name, os_arch, hardware_counters, system_calls"""
                .formatted(GONE))
                .param(ExperimentRepository.timestamp(cutoff))
                .query((rs, row) -> new HostGroup(HostLabels.parse(rs.getString("labels")),
                        rs.getBoolean("runs_commands"),
                        HostPlatform.of(rs.getString("os_name"), rs.getString("os_arch")).orElse(null),
                        counts(rs), ExperimentRepository.instant(rs, "last_heartbeat"), rs.getInt("any_live") == 1))
                .list();
    }

    private AgentRecord agent(ResultSet rs, int row) throws SQLException {
        long experiment = rs.getLong("experiment_id");
        Long experimentId = rs.wasNull() ? null : experiment;
        long token = rs.getLong("registered_by_token");
        Long registeredByToken = rs.wasNull() ? null : token;
        return new AgentRecord(rs.getLong("id"), rs.getString("name"), HostLabels.parse(rs.getString("labels")),
                rs.getBoolean("built_in"), rs.getBoolean("runs_commands"), rs.getString("host"),
                json.readValue(rs.getString("environment"), new TypeReference<Map<String, String>>() { }),
                HostPlatform.of(rs.getString("os_name"), rs.getString("os_arch")).orElse(null),
                counts(rs), rs.getString("registered_by"), registeredByToken,
                ExperimentRepository.instant(rs, "registered_at"), ExperimentRepository.instant(rs, "last_heartbeat"),
                rs.getString("status"), experimentId);
    }

    /** What a row's agent said of the counts a host may refuse; null for each it did not say. */
    private static HostCounts counts(ResultSet rs) throws SQLException {
        return new HostCounts(rs.getObject("system_calls", Boolean.class),
                rs.getObject("hardware_counters", Boolean.class));
    }
}
