package io.perflab.experiment;

import io.perflab.agent.AgentProtocol.Assignment;
import io.perflab.agent.AgentProtocol.Finish;
import io.perflab.agent.AgentProtocol.HeartbeatAnswer;
import io.perflab.agent.AgentProtocol.PairAnswer;
import io.perflab.agent.AgentProtocol.PostedPair;
import io.perflab.agent.AgentProtocol.PostedTrial;
import io.perflab.agent.AgentProtocol.Registered;
import io.perflab.agent.AgentProtocol.Registration;
import io.perflab.agent.AgentProtocol.TrialAnswer;
import io.perflab.agent.HostPlatform;
import io.perflab.security.StoredToken;
import io.perflab.system.ApiValues;
import io.perflab.system.InvalidInputException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import io.perflab.system.ApiPage;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * {@code /api/v1/agents}: benchmark agents register, long-poll for an experiment whose host labels they match,
 * heartbeat, post each finished trial (or pair, whose answer carries the stopping rule's decision) and the end of
 * their run, and say when they leave. Writes need a token of role AGENT (or an admin); an agent's own requests, the
 * token it registered with.
 */
@RestController
// an Accept that takes no JSON is refused (406) before the handler runs, so before any write
@RequestMapping(path = "/api/v1/agents", produces = MediaType.APPLICATION_JSON_VALUE)
class AgentApiController {

    /** The longest a poll may ask to wait; the service's {@code perflab.agents.long-poll} may cut it shorter. */
    static final int MAX_WAIT_SECONDS = 60;

    private final AgentCoordinator coordinator;

    AgentApiController(AgentCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    /**
     * An agent as the API shows it.
     *
     * @param status {@code IDLE} or {@code RUNNING} while it heartbeats; {@code LOST} once its heartbeat timed out,
     *     {@code LEFT} once it was stopped and said so
     * @param labels its host's labels
     * @param builtIn whether it is a service's in-process scheduler
     * @param platform its host's platform as its JVM reports it, which an engine option that runs on one platform
     *     only asks for ({@code completion=futex}: Linux on amd64 or aarch64); null when it registered none, and then
     *     it is given no such experiment
     * @param hardwareCounters whether its trials count instructions and cycles per request, the kernel granting its
     *     host the CPU's hardware counters, which a stopping target on {@code instructions_per_req} or
     *     {@code cycles_per_req} asks for; null when it did not say (an agent of an earlier release), and then it is
     *     given no such experiment, as when it says false
     * @param systemCalls whether its trials count system calls per request, the kernel letting them count the
     *     system-call tracepoint, which a stopping target on {@code syscalls_per_req} asks for; null when it did not
     *     say (an agent of an earlier release), and then it is given no such experiment, as when it says false
     * @param experimentId the experiment it runs now, or null
     */
    record AgentView(long id, String name, @ApiValues(AgentRecord.Status.class) String status,
                     Map<String, String> labels, String host, boolean builtIn, boolean runsCommands,
                     Map<String, String> environment, @Schema(nullable = true) HostPlatform platform,
                     @Schema(nullable = true) Boolean hardwareCounters, @Schema(nullable = true) Boolean systemCalls,
                     String registeredBy, Instant registeredAt, Instant lastHeartbeat, Long experimentId) {

        static AgentView of(AgentRecord a) {
            return new AgentView(a.id(), a.name(), a.status(), a.labels().labels(), a.host(), a.builtIn(),
                    a.runsCommands(), a.environment(), a.platform(), a.counts().hardwareCounters(),
                    a.counts().systemCalls(), a.registeredBy(), a.registeredAt(), a.lastHeartbeat(), a.experimentId());
        }
    }

    /** Why an agent's message is refused with 409 whatever it says. */
    private static final String GONE = "the agent left or was declared lost: register again";

    /** The answer to a finish: the experiment and the status it ended in. */
    record Finished(long experimentId, @ApiValues(value = ExperimentStatus.class,
            only = {"COMPLETED", "FAILED", "CANCELLED", "INTERRUPTED"}) String status) {
    }

    @Operation(summary = "Register an agent with its host labels and environment")
    @ApiResponse(responseCode = "201", description = "registered; Location is the agent's URL")
    @PostMapping
    ResponseEntity<Registered> register(@io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(
            examples = @ExampleObject(value = """
                    {"name": "bench-x86-1", "labels": {"arch": "x86_64", "kernel": "6.8"},
                     "environment": {"cpu_model": "AMD EPYC 7B13", "cpu_count": "8", "kernel": "Linux 6.8.0 amd64"},
                     "runsCommands": false, "hardwareCounters": true, "systemCalls": true}""")))
            @RequestBody(required = false) Registration registration, Authentication authentication) {
        Registered registered = coordinator.register(registration, caller(authentication));
        URI location = ServletUriComponentsBuilder.fromCurrentRequest().path("/{id}")
                .buildAndExpand(registered.agentId()).toUri();
        return ResponseEntity.created(location).body(registered);
    }

    @Operation(summary = "The agents, those that heartbeat first, a page at a time")
    @GetMapping
    ApiPage<AgentView> list(@RequestParam(defaultValue = "0") int page,
                            @RequestParam(defaultValue = "50") int size) {
        ApiPage<AgentRecord> agents = coordinator.list(page, size);
        return new ApiPage<>(agents.items().stream().map(AgentView::of).toList(), page, size, agents.total());
    }

    @Operation(summary = "One agent: its host, labels, state and last heartbeat")
    @GetMapping("/{id}")
    AgentView get(@PathVariable long id) {
        return AgentView.of(coordinator.get(id));
    }

    @Operation(summary = "Claim the oldest queued experiment this agent's labels match, waiting up to waitSeconds",
            description = "204 when none came. An agent that holds an experiment it has posted nothing of (the answer "
                    + "that claimed it was lost) is answered that one again.")
    @ApiResponse(responseCode = "200", description = "an experiment to run")
    @ApiResponse(responseCode = "204", description = "none came within the wait")
    @ApiResponse(responseCode = "409", description = GONE + "; or it still runs an experiment it posted trials of; "
            + "or its host cannot take the trial JVMs' memory")
    @PostMapping("/{id}/poll")
    ResponseEntity<Assignment> poll(@PathVariable long id,
                                    @RequestParam(defaultValue = "20") int waitSeconds,
                                    Authentication authentication) {
        if (waitSeconds < 0 || waitSeconds > MAX_WAIT_SECONDS) {
            throw InvalidInputException.of("waitSeconds", "must be between 0 and " + MAX_WAIT_SECONDS + ", got "
                    + waitSeconds);
        }
        return coordinator.poll(id, caller(authentication), Duration.ofSeconds(waitSeconds)).map(ResponseEntity::ok)
                .orElseGet(() -> ResponseEntity.noContent().build());
    }

    @Operation(summary = "Leave: the agent was stopped",
            description = "Its experiments are interrupted at once for the next agent of the same labels to resume, "
                    + "its waiting polls answer 204, and its later messages are refused (409) until its host "
                    + "registers again. Answers the agent, LEFT; leaving again changes nothing.")
    @ApiResponse(responseCode = "200", description = "the agent, LEFT")
    @ApiResponse(responseCode = "409", description = "it is the built-in agent of a service, which stops with it")
    @PostMapping("/{id}/leave")
    AgentView leave(@PathVariable long id, Authentication authentication) {
        return AgentView.of(coordinator.leave(id, caller(authentication)));
    }

    @Operation(summary = "Heartbeat; the answer says whether a user cancelled the experiment the agent runs")
    @ApiResponse(responseCode = "200", description = "heard")
    @ApiResponse(responseCode = "409", description = GONE)
    @PostMapping("/{id}/heartbeat")
    HeartbeatAnswer heartbeat(@PathVariable long id, Authentication authentication) {
        return coordinator.heartbeat(id, caller(authentication));
    }

    @Operation(summary = "Post one finished trial of the experiment the agent runs",
            description = "201 when stored, 200 when that ordinal was stored before with the same values (a retry "
                    + "stores nothing more), 409 when it was stored with other values.")
    @ApiResponse(responseCode = "201", description = "stored")
    @ApiResponse(responseCode = "200", description = "stored before with the same values: nothing more is stored")
    @ApiResponse(responseCode = "409", description = "stored before with other values, or the agent does not run the "
            + "experiment (" + GONE + ")")
    @PostMapping("/{id}/experiments/{experimentId}/trials")
    ResponseEntity<TrialAnswer> trial(@PathVariable long id, @PathVariable long experimentId,
            @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(examples = @ExampleObject(
                    value = """
                    {"variant": "without", "ordinal": 0, "status": "OK", "start": "2026-01-01T12:00:00Z",
                     "end": "2026-01-01T12:00:09Z", "pid": 4242,
                     "metrics": {"user_cpu_us_per_req": 41.7, "reqs_per_sec": 23810.0},
                     "environment": {"host": "bench-x86-1", "cpu_model": "AMD EPYC 7B13"}}""")))
            @RequestBody(required = false) PostedTrial trial, Authentication authentication) {
        TrialAnswer answer = coordinator.recordTrial(id, caller(authentication), experimentId, trial);
        return ResponseEntity.status(answer.stored() ? HttpStatus.CREATED : HttpStatus.OK).body(answer);
    }

    @Operation(summary = "Post one finished pair of a paired experiment the agent runs, whole",
            description = "201 when stored, 200 when that pair was stored before with the same values (a retry stores "
                    + "nothing more and is answered as the first post) or came after the stopping rule stopped the "
                    + "experiment, 409 when it was stored with other values. With "
                    + "targets or a budget, the service takes the rule's looks after each stored pair; stop: true "
                    + "tells the agent to run no further pair and finish COMPLETED.")
    @ApiResponse(responseCode = "201", description = "stored")
    @ApiResponse(responseCode = "200", description = "stored before with the same values, or after the stopping rule "
            + "stopped the experiment: nothing more is stored")
    @ApiResponse(responseCode = "409", description = "stored before with other values, or the agent does not run the "
            + "experiment (" + GONE + ")")
    @PostMapping("/{id}/experiments/{experimentId}/pairs")
    ResponseEntity<PairAnswer> pair(@PathVariable long id, @PathVariable long experimentId,
            @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(examples = @ExampleObject(
                    value = """
                    {"index": 0, "status": "OK", "first": "without", "start": "2026-01-01T12:00:00Z",
                     "end": "2026-01-01T12:00:30Z", "setupSeconds": 6.2, "measuringSeconds": 20.1,
                     "results": [
                       {"variant": "without", "ordinal": 0, "status": "OK", "start": "2026-01-01T12:00:06Z",
                        "end": "2026-01-01T12:00:16Z", "pid": 4242, "metrics": {"cpu_us_per_req": 41.7},
                        "environment": {}, "window": {"pair": 0, "window": 0, "startedFirst": true}},
                       {"variant": "with", "ordinal": 1, "status": "OK", "start": "2026-01-01T12:00:16Z",
                        "end": "2026-01-01T12:00:26Z", "pid": 4243, "metrics": {"cpu_us_per_req": 40.9},
                        "environment": {}, "window": {"pair": 0, "window": 0, "startedFirst": false}}]}""")))
            @RequestBody(required = false) PostedPair pair, Authentication authentication) {
        PairAnswer answer = coordinator.recordPair(id, caller(authentication), experimentId, pair);
        return ResponseEntity.status(answer.stored() ? HttpStatus.CREATED : HttpStatus.OK).body(answer);
    }

    @Operation(summary = "End the agent's run of an experiment: COMPLETED, FAILED, CANCELLED or INTERRUPTED")
    @ApiResponse(responseCode = "200", description = "ended")
    @ApiResponse(responseCode = "409", description = "the agent does not run the experiment (" + GONE + ")")
    @PostMapping("/{id}/experiments/{experimentId}/finish")
    Finished finish(@PathVariable long id, @PathVariable long experimentId,
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(examples =
                            @ExampleObject(value = "{\"outcome\": \"COMPLETED\", \"message\": null}")))
                    @RequestBody(required = false) Finish finish, Authentication authentication) {
        coordinator.finish(id, caller(authentication), experimentId, finish);
        return new Finished(experimentId, finish.outcome().strip().toUpperCase(java.util.Locale.ROOT));
    }

    /** Who sends a message: the principal, whether an admin, and the stored token it came with. */
    static AgentCoordinator.Caller caller(Authentication authentication) {
        return new AgentCoordinator.Caller(authentication.getName(), ExperimentApiController.isAdmin(authentication),
                StoredToken.idOf(authentication));
    }
}
