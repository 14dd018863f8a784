package io.perflab.experiment;

import static io.perflab.system.PrintableText.Validator.quoted;

import io.perflab.agent.AgentHost;
import io.perflab.agent.AgentProtocol.Assignment;
import io.perflab.agent.AgentProtocol.Finish;
import io.perflab.agent.AgentProtocol.HeartbeatAnswer;
import io.perflab.agent.AgentProtocol.PairAnswer;
import io.perflab.agent.AgentProtocol.PostedPair;
import io.perflab.agent.AgentProtocol.PostedTrial;
import io.perflab.agent.AgentProtocol.Registered;
import io.perflab.agent.AgentProtocol.Registration;
import io.perflab.agent.AgentProtocol.TrialAnswer;
import io.perflab.agent.HostCounts;
import io.perflab.agent.HostLabels;
import io.perflab.agent.HostPlatform;
import io.perflab.runner.experiment.CommandVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.MetricsReader;
import io.perflab.runner.experiment.PairResult;
import io.perflab.runner.experiment.PairStoppingRule;
import io.perflab.runner.experiment.PlannedTrial;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.ParsedMetric;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import io.perflab.security.ApiTokens;
import io.perflab.stats.Sample;
import io.perflab.system.ApiPage;
import io.perflab.system.ConflictException;
import io.perflab.system.GracefulStop;
import io.perflab.system.InvalidInputException;
import io.perflab.system.NotAllowedException;
import io.perflab.system.NotAuthenticatedException;
import io.perflab.system.NotFoundException;
import io.perflab.system.PrintableText;
import io.perflab.system.SettingException;
import io.perflab.system.StorableTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The service's side of its agents: registration, the long poll that claims an experiment, heartbeats, the trials
 * and pairs they post (taking a paired experiment's stopping-rule looks as its pairs come in), the end of their runs,
 * the leave of a stopped agent — and the watch that declares a silent agent lost, leaving its experiment
 * INTERRUPTED for the next agent of the same labels to resume. Every service instance on one database runs the
 * watch; the database's conditional updates make one of them win each declaration. Over 300 lines because
 * registration, claiming, posting and the heartbeat watch check one another's state and belong together.
 */
@Service
public class AgentCoordinator implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(AgentCoordinator.class);

    /** A poll waits at most this long between two looks at the queue: other instances' submissions wake nobody here. */
    private static final Duration POLL_RECHECK = Duration.ofMillis(250);

    /** How far an agent's clock may be from the service's for the times of the trials and pairs it posts. */
    static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

    static final int MAX_ENVIRONMENT_ENTRIES = 64;
    static final int MAX_ENVIRONMENT_VALUE = AgentHost.MAX_VALUE;
    /** The column an agent's environment is stored in, as JSON ({@code V10}). */
    static final int MAX_STORED_ENVIRONMENT = 16_000;
    /**
     * A trial's environment holds its engine options, workload, JVM flags or command: larger than a host's, and
     * bounded to fit its column (1,000,000 characters) as JSON.
     */
    static final int MAX_TRIAL_ENVIRONMENT_ENTRIES = PostedTrial.MAX_ENVIRONMENT_ENTRIES;
    static final int MAX_TRIAL_ENVIRONMENT_VALUE = PostedTrial.MAX_ENVIRONMENT_VALUE;
    /** The environment entry of a built-in agent that names the service's process. */
    static final String SERVICE_PID = "service_pid";

    /** A failed trial's error: the first part is kept (its column holds 8,000 characters). */
    static final int MAX_TRIAL_ERROR = 100_000;
    /** As many metrics as one upload may bring: a command's output is read with the upload adapters. */
    static final int MAX_METRICS = 10_000;
    static final int MAX_MESSAGE = Finish.MAX_MESSAGE;
    /** A window's or a pair's CPU list: its column holds 200 characters. */
    static final int MAX_CPUS = 200;

    private final CommandExperimentsPolicy commands;
    private final JvmFlagPolicy jvmFlags;
    private final ExperimentRepository store;
    private final AgentRepository agents;
    private final Clock clock;
    private final AgentProperties settings;
    private final ClaimedRuns runs;
    private final PairedStoppingRules rules;
    private final ApiTokens tokens;
    private final MetricsReader metricsReader;
    private final TransactionTemplate transactions;
    private final Object queueChanged = new Object();
    private final Map<Long, LongConsumer> localBuiltIns = new ConcurrentHashMap<>();
    private volatile ScheduledExecutorService watch;

    /**
     * @param looks the looks of paired experiments' stopping rules, taken here as remote agents' pairs come in
     * @param jvmFlags which stored JVM flags may still run: a claim of a plan whose flags may not is failed
     * @param tokens the API tokens agents act with, checked again as a request acts: it may have been revoked
     *     since the request came in
     * @param metricsReader the reader of command output, whose rules the metrics an agent read with it are held to
     */
    AgentCoordinator(ExperimentRepository store, AgentRepository agents, SequentialLookRepository looks,
                     ExperimentEvents events, Clock clock, AgentProperties settings,
                     PlatformTransactionManager transactionManager, CommandExperimentsPolicy commands,
                     JvmFlagPolicy jvmFlags, ApiTokens tokens, MetricsReader metricsReader) {
        this.store = store;
        this.commands = commands;
        this.jvmFlags = jvmFlags;
        this.agents = agents;
        this.clock = clock;
        this.settings = settings;
        this.tokens = tokens;
        this.metricsReader = metricsReader;
        this.transactions = new TransactionTemplate(transactionManager);
        this.runs = new ClaimedRuns(store, events, clock, transactions);
        this.rules = new PairedStoppingRules(store, looks, clock);
    }

    public AgentProperties settings() {
        return settings;
    }

    /**
     * Who sends an agent's message: the token or user it authenticated as, and whether that is an admin. An agent
     * acts with the credentials it registered with (an admin may act for any agent), so that the holder of one
     * agent token cannot heartbeat, claim, post or finish as an agent another token registered, nor as a built-in
     * agent. A token is told by its id, not its name ({@link AgentRecord#registeredBy(Caller)}).
     *
     * @param name the principal's name ({@code token:NAME} for a token), which the agent is registered under for
     *     people to read
     * @param tokenId the stored API token the message came with: the one an agent it registers acts with, checked
     *     again as it acts (it may be revoked while a poll waits or a post is stored); null for a user or the
     *     bootstrap token
     */
    public record Caller(String name, boolean admin, Long tokenId) {

        /** A caller that came with no stored API token. */
        public Caller(String name, boolean admin) {
            this(name, admin, null);
        }
    }

    /** Registers a remote agent, which acts with {@code registrant}'s token (or as that user) from then on. */
    public Registered register(Registration registration, Caller registrant) {
        if (registration == null) {
            throw InvalidInputException.of(null, "the body must be a registration: {\"name\": …, \"labels\": {…}, "
                    + "\"environment\": {…}, \"runsCommands\": false, \"hardwareCounters\": false, "
                    + "\"systemCalls\": true}");
        }
        String name = registration.name() == null ? "" : registration.name().strip();
        if (name.isEmpty() || name.length() > 200 || PrintableText.Validator.firstProblem(name, false) >= 0) {
            throw InvalidInputException.of("name", "1 to 200 printable characters (no control or hidden format "
                    + "characters), e.g. the host name");
        }
        HostLabels labels = labels("labels", registration.labels());
        // an entry whose value is null says nothing and is left out, as in an upload's machine description
        Map<String, String> environment = new java.util.LinkedHashMap<>();
        if (registration.environment() != null) {
            registration.environment().forEach((key, value) -> {
                if (value != null) {
                    environment.put(key, value);
                }
            });
        }
        if (environment.size() > MAX_ENVIRONMENT_ENTRIES) {
            throw InvalidInputException.of("environment", "at most " + MAX_ENVIRONMENT_ENTRIES + " entries, got "
                    + environment.size());
        }
        environment.forEach((key, value) -> {
            if (key == null || key.isEmpty() || key.length() > 100 || !printableText(key)) {
                throw InvalidInputException.of("environment", "keys are 1 to 100 printable characters (no control "
                        + "or hidden format characters)");
            }
            // a machine description, as an upload's: a value may hold line breaks and tabs (lscpu's output)
            int problem = value == null ? -1 : PrintableText.Validator.firstProblem(value, true);
            if (value == null || value.length() > MAX_ENVIRONMENT_VALUE || problem >= 0) {
                throw InvalidInputException.of("environment." + key, "at most " + MAX_ENVIRONMENT_VALUE
                        + " printable characters (line breaks and tabs allowed; no other control or hidden format "
                        + "characters)" + (problem >= 0 ? ", got " + PrintableText.Validator.problemAt(value, problem)
                        : ""));
            }
        });
        // each entry within its bounds, 64 of them may not fit the column (V10): the database refused with a 500
        ExperimentValidator.checkStoredLength("environment", environment, MAX_STORED_ENVIRONMENT);
        try {
            AgentHost.memoryBytes(environment);
        } catch (IllegalArgumentException bad) {
            throw InvalidInputException.of("environment." + AgentHost.MEMORY, bad.getMessage());
        }
        try {
            AgentHost.trialMemoryFlags(environment);
        } catch (IllegalArgumentException bad) {
            throw InvalidInputException.of("environment." + AgentHost.TRIAL_MEMORY_FLAGS, bad.getMessage());
        }
        checkPlatform(environment);
        jvmFlags.agentRefusal(name, environment).ifPresent(refusal -> {
            throw InvalidInputException.of("environment." + AgentHost.TRIAL_MEMORY_FLAGS, refusal);
        });
        String host = environment.getOrDefault("host", name);
        if (host.isBlank() || host.length() > 200 || !printableText(host)) {
            throw InvalidInputException.of("environment.host", "1 to 200 printable characters on one line, the "
                    + "host's name");
        }
        long id = agents.register(name, labels, false, registration.runsCommands(), host, environment,
                registration.counts(), registrant.name(), registrant.tokenId(), clock.instant());
        log.info("Agent {} '{}' on {} registered by {}{} with labels [{}]", id, name, host, registrant.name(),
                registrant.tokenId() == null ? "" : " (token " + registrant.tokenId() + ")", labels);
        return new Registered(id, seconds(settings.heartbeatInterval()), seconds(settings.heartbeatTimeout()));
    }

    /**
     * The platform a registration says, if it says one in {@value AgentHost#OS_NAME} and {@value AgentHost#OS_ARCH}:
     * both, each the JVM's own text of 1 to {@value HostPlatform#MAX_PART} characters. An agent that gives neither is
     * read by its {@code kernel} entry ({@link HostPlatform#registered}).
     */
    private static void checkPlatform(Map<String, String> environment) {
        String name = environment.get(AgentHost.OS_NAME);
        String arch = environment.get(AgentHost.OS_ARCH);
        if (name == null && arch == null) {
            return;
        }
        for (String key : List.of(AgentHost.OS_NAME, AgentHost.OS_ARCH)) {
            String value = environment.get(key);
            if (!HostPlatform.isPart(value)) {
                throw InvalidInputException.of("environment." + key, "the " + key.replace('_', '.') + " of the "
                        + "agent's JVM, 1 to " + HostPlatform.MAX_PART + " characters, registered with "
                        + (key.equals(AgentHost.OS_NAME) ? AgentHost.OS_ARCH : AgentHost.OS_NAME)
                        + " (e.g. Linux and amd64); got " + (value == null ? "none" : "'" + quoted(value) + "'"));
            }
        }
    }

    /**
     * Registers this service's built-in agent (its scheduler); its heartbeats are this watch's.
     *
     * @param cancel what to do when a user of any instance asks to cancel the experiment it runs
     */
    Claimant registerBuiltIn(LongConsumer cancel) {
        HostLabels labels = settings.builtInHostLabels();
        Map<String, String> environment = new java.util.LinkedHashMap<>(AgentHost.environment());
        String host = environment.getOrDefault("host", "localhost");
        // which process runs it: a service restarted on this host need not wait to see that the old one is gone
        environment.put(SERVICE_PID, Long.toString(ProcessHandle.current().pid()));
        String name = settings.builtInName() == null || settings.builtInName().isBlank() ? "built-in@" + host
                : settings.builtInName().strip();
        // the built-in agent claims command experiments only while this server allows them: one queued while they
        // were allowed waits, queued, once an operator has turned them off
        boolean runsCommands = commands.enabled();
        // this process's trials are counted as a perflab agent's on this host are, tried once as the service starts
        HostCounts counts = AgentHost.counts(List.of());
        refuseIfRunElsewhere(name, host);
        long id = agents.register(name, labels, true, runsCommands, host, environment, counts, "service",
                null, clock.instant());
        localBuiltIns.put(id, cancel);
        // this host's, as it registered it: an experiment whose engine options run elsewhere, or whose target this
        // host does not count, waits for an agent there
        return new Claimant(id, labels, true, runsCommands, HostPlatform.registered(environment).orElse(null),
                counts);
    }

    /** The built-in agent of this service stopped running experiments. */
    void unregisterBuiltIn(long id) {
        localBuiltIns.remove(id);
        agents.retireBuiltIn(id);
    }

    /**
     * Refuses to run built-in agent {@code name} while another service instance runs it: two instances on one host
     * take the same default name, and the second, taking over the agent, would interrupt the experiment the first
     * one runs. A built-in agent of that name that heartbeat within the timeout is watched for two of its heartbeats;
     * if they go on, another instance sends them. One that stays silent was this service's before a crash. A
     * service restarted on the host it ran on need not watch: the process that ran the agent is gone.
     *
     * @throws SettingException if another instance runs it: a setting of this one, said in one line at its start
     */
    void refuseIfRunElsewhere(String name, String host) {
        Optional<AgentRecord> known = agents.findBuiltIn(name).filter(a -> !a.gone());
        Optional<Instant> seen = known.map(AgentRecord::lastHeartbeat);
        if (seen.isEmpty() || seen.get().isBefore(agents.databaseNow().minus(settings.heartbeatTimeout()))
                || ranByAProcessGone(known.get(), host)) {
            return;
        }
        long watchMillis = 2 * watchPeriodMillis() + 1000;
        log.info("Built-in agent '{}' heartbeat at {}: watching {} ms for another service instance that runs it",
                name, seen.get(), watchMillis);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(watchMillis);
        while (System.nanoTime() < deadline) {
            try {
                Thread.sleep(Math.min(100, watchMillis));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while checking built-in agent '" + name + "'", e);
            }
            Optional<Instant> now = agents.findBuiltIn(name).filter(a -> !a.gone())
                    .map(AgentRecord::lastHeartbeat);
            if (now.isPresent() && !now.equals(seen)) {
                throw new SettingException("perflab.agents.built-in-name: another service instance runs the "
                        + "built-in agent '" + name + "' (its heartbeat went on while this one started): give this "
                        + "instance a name of its own (--perflab.agents.built-in-name=NAME) or no built-in agent "
                        + "(--perflab.agents.built-in=false); taking that one over would interrupt the experiment it "
                        + "runs");
            }
        }
    }

    /** Whether built-in agent {@code agent} was run on {@code host} (this one) by another process, gone now. */
    private static boolean ranByAProcessGone(AgentRecord agent, String host) {
        String pid = agent.environment().get(SERVICE_PID);
        if (pid == null || !agent.host().equals(host) || !pid.matches("[0-9]{1,18}")) {
            return false;
        }
        long id = Long.parseLong(pid);
        // this very process: another service instance in this JVM, which may still run it (or a restarted
        // container's process of the same number): watch
        return id != ProcessHandle.current().pid() && ProcessHandle.of(id).map(p -> !p.isAlive()).orElse(true);
    }

    /** How often the watch heartbeats the built-in agents and looks for lost ones. */
    private long watchPeriodMillis() {
        return Math.max(50, Math.min(settings.heartbeatInterval().toMillis(),
                settings.heartbeatTimeout().toMillis() / 4));
    }

    /**
     * Claims the oldest experiment the agent may run, waiting up to {@code wait} (at most {@code long-poll}) for one
     * to be queued; empty when none came. Polling counts as a heartbeat. An agent that polls while it holds an
     * experiment of which it has stored nothing is answered its assignment again, as the poll that claimed it was:
     * that answer may have been lost on its way (a proxy's 502, a reset connection, the agent's own timeout), and the
     * agent, which knows nothing of it, would run something else while the experiment waited on it until it was
     * found lost. One that has posted trials of it had that answer, and is refused. So is a poll that waits while
     * another poll of the same agent claims an experiment (the agent gave up on the first and polled again, which
     * the service cannot tell): it is answered that assignment, not "nothing" at the end of its wait. A poll that
     * waits while its agent leaves (or is declared lost) stops waiting and claims nothing: it is answered "nothing".
     */
    public Optional<Assignment> poll(long agentId, Caller caller, Duration wait) {
        AgentRecord agent = live(agentId, caller);
        Optional<Assignment> held = heldBy(agent, caller);
        if (held.isPresent()) {
            return held;
        }
        // registered under a larger bound (the operator's, before a restart): every claim would fail its experiment
        Optional<String> unfit = jvmFlags.agentRefusal(agent.name(), agent.environment());
        if (unfit.isPresent()) {
            throw new ConflictException("agent " + agentId + " is given no experiment: " + unfit.get());
        }
        Duration limit = wait.compareTo(settings.longPoll()) > 0 ? settings.longPoll() : wait;
        Instant deadline = clock.instant().plus(limit);
        while (true) {
            // claims run side by side (the database's row locks keep them apart); only the wait is shared. A token
            // revoked since the poll came in claims nothing: it is checked in the claim's transaction
            Optional<ExperimentRecord> claimed = transactions.execute(status -> {
                Optional<ExperimentRecord> taken = store.claimNext(agent.claimant(), clock.instant());
                taken.ifPresent(experiment -> requireLiveToken(caller));
                return taken;
            });
            if (claimed.isPresent() && refusedFlags(agent, claimed.get())) {
                continue;
            }
            if (claimed.isPresent()) {
                ExperimentRecord experiment = claimed.get();
                runs.started(experiment.id());
                log.info("Agent {} '{}' claimed experiment {} '{}'", agentId, agent.name(), experiment.id(),
                        experiment.name());
                queueChanged(); // another poll of this agent, if one waits, is told the same
                return Optional.of(store.assignment(experiment));
            }
            held = heldBy(agent, caller);
            if (held.isPresent()) {
                return held;
            }
            Duration left = Duration.between(clock.instant(), deadline);
            if (left.isNegative() || left.isZero()) {
                return Optional.empty();
            }
            synchronized (queueChanged) {
                try {
                    queueChanged.wait(Math.max(1, Math.min(left.toMillis(), POLL_RECHECK.toMillis())));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return Optional.empty();
                }
            }
            // a waiting poll heartbeats; one whose agent left or was declared lost meanwhile claims nothing more,
            // and one whose token was revoked meanwhile is refused as a request with that token is
            if (!beat(agentId, caller)) {
                return Optional.empty();
            }
        }
    }

    /**
     * The assignment of the experiment {@code agent} holds, sent again while it has posted nothing of it; empty when
     * it holds none.
     *
     * @throws ConflictException when it holds one and has posted trials of it
     * @throws NotAuthenticatedException when it holds one and the caller's token was revoked
     */
    private Optional<Assignment> heldBy(AgentRecord agent, Caller caller) {
        List<Long> running = store.runningOn(agent.id());
        if (running.isEmpty()) {
            return Optional.empty();
        }
        long held = running.get(0);
        if (store.hasRunsBy(held, agent.id())) {
            throw new ConflictException("agent " + agent.id() + " still runs experiment " + held
                    + " and has posted trials of it; post its finish before polling for another");
        }
        ExperimentRecord experiment = store.find(held).orElseThrow();
        requireLiveToken(caller);
        log.info("Agent {} '{}' polled while it holds experiment {} '{}', of which it posted nothing: its "
                + "assignment is sent again", agent.id(), agent.name(), held, experiment.name());
        return Optional.of(store.assignment(experiment));
    }

    /**
     * Fails a claimed experiment whose stored JVM flags this server no longer allows, as the built-in agent does:
     * queued while raw flags were allowed, it runs only while they still are, on whichever agent claims it. Likewise
     * one whose flags, counted with the claiming agent's fixed flags, ask more of its host than a trial JVM may take
     * there ({@link JvmFlagPolicy#refusalOn}). Returns whether it was failed.
     */
    private boolean refusedFlags(AgentRecord agent, ExperimentRecord experiment) {
        ExperimentPlan plan = store.plan(experiment);
        Optional<String> refusal = jvmFlags.refusalOn(agent, plan);
        if (refusal.isEmpty()) {
            return false;
        }
        log.warn("Agent {} '{}' claimed experiment {} '{}', which fails: {}", agent.id(), agent.name(),
                experiment.id(), experiment.name(), refusal.get());
        runs.end(experiment.id(), agent.id(), ExperimentStatus.FAILED, "PerfLab could not run this experiment: "
                + refusal.get(), false);
        return true;
    }

    /** Wakes the polls of this instance: an experiment was queued or can be resumed. */
    void queueChanged() {
        synchronized (queueChanged) {
            queueChanged.notifyAll();
        }
    }

    /**
     * Marks the agent as left: it was stopped and says so, rather than fall silent. Its experiments end at once, as
     * the watch ends those of a lost agent: INTERRUPTED for the next agent of the same labels to resume, or CANCELLED
     * if a user cancelled them meanwhile. Its waiting polls stop waiting and claim nothing; its later messages are
     * refused until its host registers again. Leaving again is harmless, and an agent declared lost stays LOST.
     *
     * @return the agent as it is now: LEFT, or LOST if it was declared lost first
     * @throws ConflictException for a built-in agent, which stops with its service
     */
    public AgentRecord leave(long agentId, Caller caller) {
        AgentRecord agent = owned(agentId, caller);
        if (agent.builtIn()) {
            throw new ConflictException("agent " + agentId + " is the built-in agent of a service: it stops with its "
                    + "service (or with perflab.agents.built-in=false), not by leaving");
        }
        if (agents.leave(agentId)) {
            log.info("Agent {} '{}' on {} left: it was stopped", agentId, agent.name(), agent.host());
        }
        // also a claim that came in a race with an earlier leave, and those of an agent declared lost before
        AgentRecord gone = get(agentId);
        interruptClaims(gone);
        // its waiting polls, which now claim nothing, and the polls of other agents, which may resume its experiment
        queueChanged();
        return get(agentId);
    }

    /** Records a heartbeat; tells the agent whether a user cancelled the experiment it runs. */
    public HeartbeatAnswer heartbeat(long agentId, Caller caller) {
        live(agentId, caller);
        return new HeartbeatAnswer(store.runningOn(agentId).stream().anyMatch(store::cancelRequested));
    }

    /**
     * Stores a trial the agent finished, once: a retried post stores nothing more. The agent must hold the
     * experiment, and the trial must be the plan's: its ordinal pending or stored, its variant the plan's there.
     *
     * @throws ConflictException when a trial with other values is stored at its ordinal ({@link RepostedResults})
     */
    public TrialAnswer recordTrial(long agentId, Caller caller, long experimentId, PostedTrial posted) {
        live(agentId, caller);
        ExperimentRecord experiment = held(agentId, experimentId);
        TrialResult result = checked(experiment, posted);
        boolean stored = runs.record(agentId, experiment, result, () -> requireLiveToken(caller));
        if (!stored) {
            store.storedRun(experimentId, result.ordinal())
                    .flatMap(run -> RepostedResults.difference(run, store.asStored(result), ""))
                    .ifPresent(difference -> {
                        throw reposted("ordinal " + result.ordinal(), "trial", experimentId, difference);
                    });
        }
        return new TrialAnswer(stored, store.cancelRequested(experimentId));
    }

    /**
     * Where posted pair {@code pair} differs from the one stored at its index, its own fields first, then its
     * windows in the order posted; empty when it is the same pair (or none is stored).
     */
    private Optional<String> storedOtherwise(long experimentId, PairResult pair) {
        Optional<String> difference = store.storedPair(experimentId, pair.index())
                .flatMap(stored -> RepostedResults.difference(stored, ExperimentRepository.asStored(pair)));
        for (int i = 0; i < pair.results().size() && difference.isEmpty(); i++) {
            TrialResult window = pair.results().get(i);
            String prefix = "results[" + i + "].";
            difference = store.storedRun(experimentId, window.ordinal())
                    .flatMap(stored -> RepostedResults.difference(stored, store.asStored(window), prefix));
        }
        return difference;
    }

    /** The refusal of a trial or pair posted again with values other than those stored: no retry, nothing stored. */
    private static ConflictException reposted(String which, String what, long experimentId, String difference) {
        return new ConflictException(which + " of experiment " + experimentId + " is stored with other values ("
                + difference + "): a " + what + " posted again, as a retry after a network error, is the same "
                + what + "; a stored " + what + " is never replaced, and nothing was stored");
    }

    /**
     * Stores a pair of a paired design the agent finished, whole and once: a retried post stores nothing more. The
     * agent must hold the experiment; the pair must be the plan's, and its windows the pair's. With a stopping rule,
     * the rule's looks after the pair are taken and stored with it, as the built-in agent's rule takes them, and the
     * answer tells the agent to stop when the rule says so; a retry is answered as the first post was, and a pair
     * posted after the rule stopped the experiment is not stored.
     *
     * @throws ConflictException when a pair with other values is stored at its index ({@link RepostedResults})
     */
    public PairAnswer recordPair(long agentId, Caller caller, long experimentId, PostedPair posted) {
        live(agentId, caller);
        ExperimentRecord experiment = held(agentId, experimentId);
        if (posted == null) {
            throw InvalidInputException.of(null, "the body must be a pair");
        }
        if (!experiment.paired()) {
            throw new ConflictException("experiment " + experimentId + " is of the fresh design; post its trials, "
                    + "not pairs");
        }
        PairResult pair;
        try {
            pair = posted.toResult();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw invalid(e);
        }
        int windows = experiment.windowsPerPair();
        if (pair.index() < 0 || pair.index() >= experiment.runsPerVariant()) {
            throw InvalidInputException.of("index", pair.index() + " is not a pair of the plan (0.."
                    + (experiment.runsPerVariant() - 1) + ")");
        }
        if (pair.status() == TrialStatus.CANCELLED) {
            throw InvalidInputException.of("status", "a pair cut short is not stored: it runs again, whole");
        }
        checkTimes(experiment, pair.start(), pair.end(), "", "pair");
        checkCpus("withoutCpus", pair.placement().withoutCpus());
        checkCpus("withCpus", pair.placement().withCpus());
        if (pair.error() != null && pair.error().length() > MAX_TRIAL_ERROR) {
            throw InvalidInputException.of("error", "at most " + MAX_TRIAL_ERROR + " characters");
        }
        if (pair.results().size() > 2 * windows) {
            throw InvalidInputException.of("results", "a pair of this plan has at most " + 2 * windows + " windows");
        }
        if (pair.ok() && pair.results().size() != 2 * windows) {
            throw InvalidInputException.of("results", "an OK pair has every window of both variants: " + 2 * windows
                    + ", got " + pair.results().size());
        }
        if (!pair.ok() && pair.results().size() != 2) {
            throw InvalidInputException.of("results", "a failed pair has one record per variant: 2, got "
                    + pair.results().size());
        }
        java.util.Set<Integer> ordinals = new java.util.HashSet<>();
        int first = pair.index() * windows * 2;
        ExperimentPlan plan = store.plan(experiment);
        Map<String, MetricDefinition> defined = store.metricDefinitions();
        for (int i = 0; i < pair.results().size(); i++) {
            TrialResult window = pair.results().get(i);
            String field = "results[" + i + "].";
            if (window.pair() == null || window.pair().index() != pair.index()) {
                throw InvalidInputException.of(field + "window.pair", "must be " + pair.index());
            }
            // a failed pair's two records are its first window's ordinals: one per variant, as the runner makes them
            int last = pair.ok() ? first + 2 * windows : first + 2;
            if (window.ordinal() < first || window.ordinal() >= last || !ordinals.add(window.ordinal())) {
                throw InvalidInputException.of(field + "ordinal", window.ordinal() + " is not a free ordinal of "
                        + (pair.ok() ? "pair " : "failed pair ") + pair.index()
                        + " (" + first + ".." + (last - 1) + ")");
            }
            String side = window.ordinal() % 2 == 0 ? "without" : "with";
            if (!side.equals(window.variant())) {
                throw InvalidInputException.of(field + "variant", "the plan runs '" + side + "' at ordinal "
                        + window.ordinal() + ", not '" + quoted(window.variant()) + "'");
            }
            // the analysis takes the OK windows: those of an OK pair, never a failed pair's records
            if (window.ok() != pair.ok()) {
                throw InvalidInputException.of(field + "status", pair.ok() ? "every window of an OK pair is OK, got "
                        + window.status() : "the records of a failed pair are not OK; the pair is " + pair.status());
            }
            // the analysis pairs window j of one side with window j of the other: it must be the ordinal's
            int at = (window.ordinal() - first) / 2;
            Integer given = window.pair().window();
            if (pair.ok() ? given == null || given != at : given != null && given != at) {
                throw InvalidInputException.of(field + "window.window", "must be " + at + ", the window of ordinal "
                        + window.ordinal() + (pair.ok() ? "" : " (or null in a failed pair)") + ", got " + given);
            }
            checkCpus(field + "window.cpus", window.pair().cpus());
            checkFields(experiment, window, field);
            checkParsedMetrics(experiment, window, field);
            checkMetricValues(experiment, plan, defined, window, field);
        }
        if (experiment.stopReason() != null && !store.storedPairs(experimentId).contains(pair.index())) {
            return new PairAnswer(false, store.cancelRequested(experimentId), true, experiment.stopReason());
        }
        Optional<PairStoppingRule.Decision> decision = runs.recordPair(agentId, experiment, pair,
                () -> requireLiveToken(caller), () -> rules.afterPostedPair(experiment, agentId, pair));
        if (decision.isEmpty()) {
            storedOtherwise(experimentId, pair).ifPresent(difference -> {
                throw reposted("pair " + pair.index(), "pair", experimentId, difference);
            });
        }
        // a retry: the decision the first post took, as stored
        String stopReason = decision.isPresent() ? (decision.get().stop() ? decision.get().reason() : null)
                : store.find(experimentId).map(ExperimentRecord::stopReason).orElse(null);
        return new PairAnswer(decision.isPresent(), store.cancelRequested(experimentId), stopReason != null,
                stopReason);
    }

    /** Ends the agent's run of an experiment as it says. */
    public void finish(long agentId, Caller caller, long experimentId, Finish finish) {
        live(agentId, caller);
        ExperimentRecord experiment = held(agentId, experimentId);
        if (finish == null || finish.outcome() == null) {
            throw InvalidInputException.of("outcome", "required: COMPLETED, FAILED, CANCELLED or INTERRUPTED");
        }
        ExperimentStatus end = switch (finish.outcome().strip().toUpperCase(Locale.ROOT)) {
            case "COMPLETED" -> ExperimentStatus.COMPLETED;
            case "FAILED" -> ExperimentStatus.FAILED;
            case "CANCELLED" -> ExperimentStatus.CANCELLED;
            case "INTERRUPTED" -> ExperimentStatus.INTERRUPTED;
            default -> throw InvalidInputException.of("outcome", "'" + quoted(finish.outcome())
                    + "' is not one of COMPLETED, FAILED, CANCELLED, INTERRUPTED");
        };
        String message = finish.message();
        if (message != null && (message.length() > MAX_MESSAGE
                || PrintableText.Validator.firstProblem(message, true) >= 0)) {
            throw InvalidInputException.of("message", "at most " + MAX_MESSAGE + " printable characters (line "
                    + "breaks allowed; no other control or hidden format characters)");
        }
        if (end == ExperimentStatus.COMPLETED) {
            Assignment left = store.assignment(experiment);
            if (!left.pendingOrdinals().isEmpty()) {
                throw InvalidInputException.of("outcome", "COMPLETED, but the trials at ordinals "
                        + left.pendingOrdinals() + " are not stored; post them first");
            }
            if (!left.pendingPairs().isEmpty()) {
                throw InvalidInputException.of("outcome", "COMPLETED, but the pairs " + left.pendingPairs()
                        + " are not stored; post them first");
            }
        }
        // an agent that stops hands its experiment back: the next agent of the same labels resumes it
        if (!runs.end(experimentId, agentId, end, message, end == ExperimentStatus.INTERRUPTED,
                () -> requireLiveToken(caller))) {
            throw new ConflictException("experiment " + experimentId + " is not running on agent " + agentId);
        }
        if (end == ExperimentStatus.INTERRUPTED) {
            queueChanged();
        }
    }

    /** The agents, those that heartbeat first; at most 200. */
    public List<AgentRecord> list() {
        return agents.list();
    }

    /** Page {@code page} of {@code size} of the agents, those that heartbeat first, and how many there are. */
    public ApiPage<AgentRecord> list(int page, int size) {
        ApiPage.check(page, size);
        return new ApiPage<>(agents.list(page, size), page, size, agents.count());
    }

    public AgentRecord get(long agentId) {
        return agents.find(agentId).orElseThrow(() -> new NotFoundException("no agent with id " + agentId));
    }

    /** Agents by id, for pages that name the agents of experiments. */
    public Map<Long, AgentRecord> byIds(java.util.Collection<Long> ids) {
        return agents.byIds(ids);
    }

    /**
     * The agent, which must have been registered by the caller, with the same token (or the caller be an admin).
     *
     * @throws NotFoundException if there is no such agent
     * @throws NotAllowedException if the caller may not act as it
     */
    AgentRecord owned(long agentId, Caller caller) {
        AgentRecord agent = get(agentId);
        if (!caller.admin() && !agent.registeredBy(caller)) {
            throw new NotAllowedException("agent " + agentId + " is not this token's: an agent acts with the token "
                    + "it registered with (or an admin's); register this host to get an agent id of its own");
        }
        return agent;
    }

    /**
     * The agent, which must be registered by the caller (or the caller an admin), neither lost nor left; its
     * heartbeat is recorded, if the caller's token still holds.
     */
    private AgentRecord live(long agentId, Caller caller) {
        AgentRecord agent = owned(agentId, caller);
        if (!beat(agentId, caller)) {
            if ("LEFT".equals(agents.find(agentId).map(AgentRecord::status).orElse(agent.status()))) {
                throw new ConflictException("agent " + agentId + " left the service (it was stopped), and any "
                        + "experiment it held was handed back; an agent id is not used again after a leave. "
                        + "Register again.");
            }
            throw new ConflictException("agent " + agentId + " was declared lost after no heartbeat since "
                    + agent.lastHeartbeat() + "; its experiment was interrupted. Register again.");
        }
        return agent;
    }

    /**
     * Records a heartbeat of the agent, unless the caller's token was revoked since its request came in: checked in
     * the heartbeat's transaction, so that a revoked token keeps no agent alive. False if the agent is lost or left.
     *
     * @throws NotAuthenticatedException if the token was revoked; no heartbeat is recorded
     */
    private boolean beat(long agentId, Caller caller) {
        return Boolean.TRUE.equals(transactions.execute(status -> {
            boolean beat = agents.heartbeat(agentId);
            requireLiveToken(caller);
            return beat;
        }));
    }

    /**
     * Refuses a caller whose API token was revoked after its request was let in (a poll that waited, a post stored
     * a moment later), as a request that comes with that token is refused: the token's row is read, and locked, in
     * the caller's transaction, so that what the caller does there comes wholly before the revocation or not at all.
     *
     * @throws NotAuthenticatedException if the token no longer authenticates
     */
    private void requireLiveToken(Caller caller) {
        if (caller.tokenId() != null) {
            tokens.refusal(caller.tokenId()).ifPresent(refusal -> {
                throw new NotAuthenticatedException(refusal);
            });
        }
    }

    /** The experiment, which the agent must hold. */
    private ExperimentRecord held(long agentId, long experimentId) {
        ExperimentRecord experiment = store.find(experimentId)
                .orElseThrow(() -> new NotFoundException("no experiment with id " + experimentId));
        if (!store.holds(experimentId, agentId)) {
            throw new ConflictException("experiment " + experimentId + " is not running on agent " + agentId
                    + " (it is " + experiment.status() + "); nothing was stored");
        }
        return experiment;
    }

    /** The posted trial as the runner's result, each field checked against its bounds and the plan. */
    private TrialResult checked(ExperimentRecord experiment, PostedTrial posted) {
        if (posted == null) {
            throw InvalidInputException.of(null, "the body must be a trial");
        }
        if (experiment.paired()) {
            throw new ConflictException("experiment " + experiment.id() + " is of a paired design; post its pairs "
                    + "whole (…/experiments/" + experiment.id() + "/pairs), not single trials");
        }
        TrialResult result;
        try {
            result = posted.toResult();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw invalid(e);
        }
        if (result.pair() != null) {
            throw InvalidInputException.of("window", "a trial of the fresh design lies in no pair");
        }
        ExperimentPlan plan = store.plan(experiment);
        Optional<PlannedTrial> planned = plan.trials().stream()
                .filter(t -> t.ordinal() == result.ordinal()).findFirst();
        if (planned.isEmpty()) {
            throw InvalidInputException.of("ordinal", result.ordinal() + " is not in the plan of experiment "
                    + experiment.id() + " (0.." + (experiment.totalRuns() - 1) + ")");
        }
        if (!planned.get().variant().label().equals(result.variant())) {
            throw InvalidInputException.of("variant", "the plan runs '" + planned.get().variant().label()
                    + "' at ordinal " + result.ordinal() + ", not '" + quoted(result.variant()) + "'");
        }
        checkFields(experiment, result, "");
        checkParsedMetrics(experiment, result, "");
        checkMetricValues(experiment, plan, store.metricDefinitions(), result, "");
        return result;
    }

    /** A message of the form {@code field: what is wrong} as the problem of that field. */
    private static InvalidInputException invalid(RuntimeException e) {
        String message = String.valueOf(e.getMessage());
        int colon = message.indexOf(':');
        return colon > 0 && !message.substring(0, colon).contains(" ")
                ? InvalidInputException.of(message.substring(0, colon), message.substring(colon + 1).strip())
                : InvalidInputException.of(e instanceof NullPointerException ? message : null, message);
    }

    /** Checks a posted trial's or window's fields against their bounds; {@code prefix} is where it lies. */
    private void checkFields(ExperimentRecord experiment, TrialResult result, String prefix) {
        checkTimes(experiment, result.start(), result.end(), prefix, "trial");
        if (result.error() != null && result.error().length() > MAX_TRIAL_ERROR) {
            throw InvalidInputException.of(prefix + "error", "at most " + MAX_TRIAL_ERROR + " characters");
        }
        if (result.ok() && result.metrics().isEmpty()) {
            // it was stored, an OK run with no sample in any comparison
            throw InvalidInputException.of(prefix + "metrics", "an OK " + (result.pair() == null ? "trial" : "window")
                    + " measured something: give its metrics, or post it as FAILED with its error");
        }
        if (result.metrics().size() > MAX_METRICS) {
            throw InvalidInputException.of(prefix + "metrics", "at most " + MAX_METRICS + " metrics");
        }
        result.metrics().forEach((key, value) -> {
            if (key.isEmpty() || key.length() > 100 || !printableText(key)) {
                throw InvalidInputException.of(prefix + "metrics", "metric keys are 1 to 100 printable characters "
                        + "(no control or hidden format characters), got '" + quoted(key) + "'");
            }
            if (value == null) {
                throw InvalidInputException.of(prefix + "metrics." + key, "must be a finite number, got null");
            }
            // a value no analysis can take would make every page and report that compares it fail
            String problem = Sample.problem(value);
            if (problem != null) {
                throw InvalidInputException.of(prefix + "metrics." + key, problem);
            }
        });
        result.parsedMetrics().forEach((key, metric) -> {
            if (!result.metrics().containsKey(key)) {
                throw InvalidInputException.of(prefix + "parsedMetrics." + key, "has no sample in metrics");
            }
            if (metric.unit().length() > 40 || !printableText(metric.unit())) {
                throw InvalidInputException.of(prefix + "parsedMetrics." + key + ".unit",
                        "at most 40 printable characters");
            }
            for (double value : metric.values()) {
                String problem = Sample.problem(value);
                if (problem != null) {
                    throw InvalidInputException.of(prefix + "parsedMetrics." + key + ".values", "a value " + problem);
                }
            }
        });
        if (result.environment().size() > MAX_TRIAL_ENVIRONMENT_ENTRIES) {
            throw InvalidInputException.of(prefix + "environment", "at most " + MAX_TRIAL_ENVIRONMENT_ENTRIES
                    + " entries");
        }
        result.environment().forEach((key, value) -> {
            if (key.isEmpty() || key.length() > PostedTrial.MAX_ENVIRONMENT_KEY || value == null
                    || value.length() > MAX_TRIAL_ENVIRONMENT_VALUE) {
                throw InvalidInputException.of(prefix + "environment", "keys of 1 to "
                        + PostedTrial.MAX_ENVIRONMENT_KEY + " and values of at most " + MAX_TRIAL_ENVIRONMENT_VALUE
                        + " characters");
            }
            if (!key.equals(PostedTrial.printable(key, false))) {
                throw InvalidInputException.of(prefix + "environment", "keys are printable text: no control or "
                        + "hidden format characters, got '" + quoted(key) + "'");
            }
            if (!value.equals(PostedTrial.printable(value, true))) {
                throw InvalidInputException.of(prefix + "environment." + key, "no control characters but line "
                        + "breaks and tabs, and no hidden format characters");
            }
        });
    }

    /**
     * A trial's metrics read from its output, which set their metrics' directions for the whole experiment: only a
     * command experiment's trials read any, never under the name of a figure PerfLab measures of every command (its
     * own runner refuses such output), and under the name of an engine metric (rpc-bench's report is read under
     * DESIGN's keys) only in PerfLab's direction for it.
     */
    private static void checkParsedMetrics(ExperimentRecord experiment, TrialResult result, String prefix) {
        if (result.parsedMetrics().isEmpty()) {
            return;
        }
        if (experiment.kind() != ExperimentKind.COMMAND) {
            throw InvalidInputException.of(prefix + "parsedMetrics", "only the trials of a command experiment read "
                    + "metrics from their output; experiment " + experiment.id() + " is of kind "
                    + experiment.kind().name().toLowerCase(Locale.ROOT));
        }
        result.parsedMetrics().forEach((key, metric) -> {
            if (MetricKeys.measuredOfCommands(key)) {
                throw InvalidInputException.of(prefix + "parsedMetrics." + key, "is a figure PerfLab measures of "
                        + "every trial, not one read from the output");
            }
            if (MetricKeys.PAIRED_ENGINE.contains(key) && metric.higherIsBetter() == MetricKeys.lowerIsBetter(key)) {
                throw InvalidInputException.of(prefix + "parsedMetrics." + key + ".higherIsBetter", "must be "
                        + !MetricKeys.lowerIsBetter(key) + ": this is PerfLab's metric of that name, on which "
                        + (MetricKeys.lowerIsBetter(key) ? "lower" : "higher") + " is better");
            }
        });
    }

    /**
     * A trial's or window's metrics against what they measure, so that no value is stored that no run can have
     * measured (and that the page and the reports would compare). An engine trial reports the engine's metrics
     * ({@link MetricKeys#ENGINE_ALL}) and nothing else. A metric PerfLab defines ({@code metric_definition}) in the
     * unit of a time, count, size or rate ({@link MetricDefinition#neverNegative}) is never below 0, nor is a figure
     * PerfLab measures of every command (its times, context switches, exit status). A command's metric read from its
     * output may be of any name and sign, as its format allows: where the format's reader refuses a negative value
     * (a Go {@code ns/op}, rpc-bench's requests per second, JMH's primary score), so is one an agent read with it.
     */
    private void checkMetricValues(ExperimentRecord experiment, ExperimentPlan plan,
                                   Map<String, MetricDefinition> defined, TrialResult result, String prefix) {
        boolean engine = experiment.kind() == ExperimentKind.ENGINE;
        for (Map.Entry<String, Double> metric : result.metrics().entrySet()) {
            String key = metric.getKey();
            double value = metric.getValue();
            if (engine && !MetricKeys.ENGINE_ALL.contains(key)) {
                // the key is the agent's text: named escaped as it is quoted, so that it cannot break the message
                throw InvalidInputException.of(prefix + "metrics." + PrintableText.Validator.shown(key), "'"
                        + quoted(key) + "' is not a metric of the engine: an engine trial reports "
                        + String.join(", ", MetricKeys.ENGINE_ALL));
            }
            ParsedMetric parsed = result.parsedMetrics().get(key);
            if (parsed != null) {
                Optional<String> format = plan.variant(VariantName.parse(result.variant())) instanceof CommandVariant c
                        ? c.metricsFormat() : Optional.empty();
                Optional<String> refusal = format.flatMap(f -> metricsReader.negativeRefusal(f, key, parsed.unit()));
                if (refusal.isPresent()) {
                    String why = ", which " + refusal.get() + " (its " + format.get() + " output is refused so)";
                    if (value < 0) {
                        throw InvalidInputException.of(prefix + "metrics." + key, value + " is negative" + why);
                    }
                    for (double read : parsed.values()) {
                        if (read < 0) {
                            throw InvalidInputException.of(prefix + "parsedMetrics." + key + ".values", "a value, "
                                    + read + ", is negative" + why);
                        }
                    }
                }
                continue;
            }
            MetricDefinition definition = defined.get(key);
            if (value < 0 && definition != null && definition.neverNegative()) {
                throw InvalidInputException.of(prefix + "metrics." + key, value + " is negative: " + key + " is a "
                        + "measure in " + definition.unit() + " (" + definition.description() + "), which no run "
                        + "measures below 0");
            }
            if (value < 0 && !engine && MetricKeys.measuredOfCommands(key)) {
                throw InvalidInputException.of(prefix + "metrics." + key, value + " is negative: " + key + " is a "
                        + "time or a count PerfLab measures of every command, which no run measures below 0");
            }
        }
    }

    /**
     * A posted start and end of a {@code what}: both given, the end not before the start, and both within the
     * experiment's claim — from when it was claimed to now, give or take {@link #CLOCK_SKEW} between the agent's
     * clock and the service's. A time outside (a start read as seconds since 1970) would be stored and skew the
     * experiment's time left and every page that draws its runs in time.
     */
    private void checkTimes(ExperimentRecord experiment, Instant start, Instant end, String prefix, String what) {
        if (start == null || end == null || end.isBefore(start)) {
            throw InvalidInputException.of(prefix + (start == null ? "start" : "end"),
                    "a " + what + " needs its start and its end, the end not before the start");
        }
        checkTime(prefix + "start", start);
        checkTime(prefix + "end", end);
        Instant claimed = experiment.startedAt();
        if (claimed != null && start.isBefore(claimed.minus(CLOCK_SKEW))) {
            throw InvalidInputException.of(prefix + "start", start + " is before experiment " + experiment.id()
                    + " was claimed (" + claimed + ", allowing " + CLOCK_SKEW.toMinutes() + " minutes of clock "
                    + "skew): a " + what + " runs after its claim");
        }
        Instant now = clock.instant();
        if (end.isAfter(now.plus(CLOCK_SKEW))) {
            throw InvalidInputException.of(prefix + "end", end + " lies in the future (the service's time is " + now
                    + ", allowing " + CLOCK_SKEW.toMinutes() + " minutes of clock skew): post a " + what
                    + " once it has ended");
        }
    }

    /** A time the store keeps ({@link StorableTime}). */
    private static void checkTime(String field, Instant time) {
        String problem = StorableTime.problem(time);
        if (problem != null) {
            throw InvalidInputException.of(field, problem);
        }
    }

    /** A CPU list as taskset writes it ({@code 0-3,6}), or null: it fits its column and holds no control code. */
    private static void checkCpus(String field, String cpus) {
        if (cpus != null && (cpus.length() > MAX_CPUS || PrintableText.Validator.firstProblem(cpus, false) >= 0)) {
            throw InvalidInputException.of(field, "a CPU list such as 0-3,6: at most " + MAX_CPUS
                    + " printable characters");
        }
    }

    /** Heartbeats this instance's built-in agents, then declares silent agents lost and interrupts their work. */
    void watch() {
        localBuiltIns.forEach((id, cancel) -> {
            if (agents.heartbeatBuiltIn(id)) {
                log.warn("Built-in agent {} heartbeats again after it was declared lost; its experiments were "
                        + "interrupted, and it claims anew", id);
            }
            store.runningOn(id).stream().filter(store::cancelRequested).forEach(cancel::accept);
        });
        // by the database's clock, which stamped the heartbeats: the instances' clocks may be apart
        Instant cutoff = agents.databaseNow().minus(settings.heartbeatTimeout());
        for (long id : agents.silentSince(cutoff)) {
            if (agents.declareLost(id, cutoff)) {
                AgentRecord agent = agents.find(id).orElseThrow();
                log.warn("Agent {} '{}' on {} is lost: no heartbeat for {}", id, agent.name(), agent.host(),
                        settings.heartbeatTimeout());
            }
        }
        // those declared now, and any an instance declared lost but stopped before it ended their claims
        boolean interrupted = false;
        for (long id : agents.lostHolding(cutoff)) {
            interrupted |= interruptClaims(agents.find(id).orElseThrow());
        }
        if (interrupted) {
            queueChanged();
        }
    }

    /**
     * Ends the claims of lost or left agent {@code agent}: its experiments become INTERRUPTED for the next agent of
     * the same labels, or CANCELLED when a user cancelled them meanwhile. One with nothing left to run (every trial or
     * pair stored, or stopped by its rule: the agent was lost before it posted the end) is COMPLETED, or FAILED after
     * more failures than its plan allows, as that end would have made it. Whether one was left to resume.
     */
    private boolean interruptClaims(AgentRecord agent) {
        boolean interrupted = false;
        String why = "LEFT".equals(agent.status()) ? " left the service (it was stopped)"
                : " sent no heartbeat after " + agent.lastHeartbeat();
        for (long experimentId : store.runningOn(agent.id())) {
            // a user who cancelled it meanwhile wants it stopped, not resumed elsewhere
            boolean cancelled = store.cancelRequested(experimentId);
            Optional<ExperimentRecord> done = cancelled ? Optional.empty()
                    : store.find(experimentId).filter(store::nothingLeftToRun);
            if (done.isPresent()) {
                ExperimentRepository.End end = store.endWithNothingLeft(done.get());
                if (runs.end(experimentId, agent.id(), end.status(), end.error(), false)) {
                    log.warn("Experiment {} {}: agent {} on {}{} before it posted the end, but every run of the plan "
                            + "is stored{}", experimentId, end.status(), agent.name(), agent.host(), why,
                            end.error() == null ? "" : "; " + end.error());
                }
                continue;
            }
            String message = "agent " + agent.name() + " on " + agent.host() + why + "; its finished trials are kept"
                    + (cancelled ? ", and it stays cancelled" : ", and the next agent of the same labels resumes "
                    + "the rest");
            ExperimentStatus end = cancelled ? ExperimentStatus.CANCELLED : ExperimentStatus.INTERRUPTED;
            if (runs.end(experimentId, agent.id(), end, message, !cancelled)) {
                log.warn("Experiment {} {}: {}", experimentId, end, message);
                interrupted |= !cancelled;
            }
        }
        return interrupted;
    }

    @Override
    public void start() {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "perflab-agent-watch");
            thread.setDaemon(true);
            return thread;
        });
        long period = watchPeriodMillis();
        executor.scheduleWithFixedDelay(() -> {
            try {
                watch();
            } catch (RuntimeException e) {
                log.error("The agent watch hit an error; it looks again in {} ms", period, e);
            }
        }, period, period, TimeUnit.MILLISECONDS);
        watch = executor;
    }

    @Override
    public void stop() {
        ScheduledExecutorService executor = watch;
        if (executor != null) {
            // a watch under way, which reads and writes the database, ends before the service goes on stopping
            GracefulStop.stop(executor, ExperimentScheduler.STOP_GRACE);
        }
        watch = null;
    }

    @Override
    public boolean isRunning() {
        return watch != null;
    }

    /** Starts before the scheduler, which registers the built-in agent with it, and stops after it. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 1;
    }

    static HostLabels labels(String field, Map<String, String> given) {
        try {
            return HostLabels.of(given);
        } catch (IllegalArgumentException e) {
            throw InvalidInputException.of(field, e.getMessage());
        }
    }

    /** Text a page shows as it is: no control characters, and none that hide or reorder text (a bidi override). */
    private static boolean printableText(String text) {
        return PrintableText.Validator.firstProblem(text, false) < 0;
    }

    private static double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }
}
