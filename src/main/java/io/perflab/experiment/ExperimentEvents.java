package io.perflab.experiment;

import io.perflab.system.ApiProblem;
import io.perflab.system.Texts;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Server-sent events about experiments: {@code status} when an experiment changes state, {@code run} when one
 * of its trials finished. Subscribers listen to one experiment or, with id 0, to all of them (the home page).
 *
 * <p>An event goes to this instance's subscribers at once and, when several instances share a PostgreSQL database,
 * through the {@link Relay} to the subscribers of the others ({@link ExperimentEventChannel}); on H2 there is no
 * relay. Event data travels as the JSON the stream sends, so an event reads the same from every instance.
 *
 * <p>Every open stream gets a comment every {@link #HEARTBEAT} while the application runs, events or not: an
 * experiment can be silent for minutes (a long warmup or window).
 */
@Component
public class ExperimentEvents implements SmartLifecycle {

    /** Subscriptions to every experiment use this id. */
    public static final long ALL = 0;

    private static final Duration TIMEOUT = Duration.ofMinutes(30);

    /**
     * How often every open stream gets a comment. A reverse proxy drops a response silent for longer than its read
     * timeout (nginx's {@code proxy_read_timeout} is 60 s by default), and a client that went away is only found by
     * a send to it: a third of that keeps the streams open and finds the closed ones within 20 s.
     */
    static final Duration HEARTBEAT = Duration.ofSeconds(20);

    private static final Logger log = LoggerFactory.getLogger(ExperimentEvents.class);

    /** Carries events to the subscribers of the other instances. */
    @FunctionalInterface
    interface Relay {
        Relay NONE = (experimentId, name, json) -> { };

        void forward(long experimentId, String name, String json);
    }

    /**
     * The most streams this instance keeps open at once. Each is a connection held open for up to half an hour; past
     * this, a client that opens stream after stream would hold the web server's connections (Tomcat's 8,192) that
     * the pages and the API need.
     */
    static final int MAX_STREAMS = 1000;

    /**
     * The most streams one client (a signed-in user or token, else an address) keeps open at once: a page open in
     * each of dozens of tabs, not one client's taking of every stream. Users behind one proxy share its address.
     */
    static final int MAX_STREAMS_PER_CLIENT = 100;

    private final Map<Long, List<SseEmitter>> subscribers = new ConcurrentHashMap<>();
    /** The client of each open stream; the counts below, guarded by {@link #openByClient}, follow it. */
    private final Map<SseEmitter, String> clientOf = new ConcurrentHashMap<>();
    private final Map<String, Integer> openByClient = new HashMap<>();
    private int open;
    private final JsonMapper json;
    private volatile Relay relay = Relay.NONE;
    private volatile ScheduledExecutorService heartbeats;

    /** Events of this process only, their data written by a default JSON mapper. */
    public ExperimentEvents() {
        this(JsonMapper.builder().build());
    }

    @Autowired
    public ExperimentEvents(JsonMapper json) {
        this.json = json;
    }

    /**
     * A new stream of the events of experiment {@code id} (or {@link #ALL}), opened with a comment.
     *
     * @param client who asks, as {@link #MAX_STREAMS_PER_CLIENT} counts
     * @throws ApiProblem 429 when the client has {@value #MAX_STREAMS_PER_CLIENT} streams open, or this instance
     *     {@value #MAX_STREAMS}
     */
    public SseEmitter subscribe(long id, String client) {
        return subscribe(id, client, new SseEmitter(TIMEOUT.toMillis()));
    }

    /** Adds {@code emitter} to the subscribers of experiment {@code id} (or {@link #ALL}) and opens it. */
    SseEmitter subscribe(long id, String client, SseEmitter emitter) {
        admit(client);
        clientOf.put(emitter, client);
        subscribers.compute(id, (k, list) -> {
            List<SseEmitter> emitters = list == null ? new CopyOnWriteArrayList<>() : list;
            emitters.add(emitter);
            return emitters;
        });
        Runnable remove = () -> unsubscribe(id, emitter);
        emitter.onCompletion(remove);
        emitter.onTimeout(remove);
        emitter.onError(e -> remove.run());
        try {
            // opens the stream at once (its headers go out with it), so a client knows it is subscribed
            emitter.send(SseEmitter.event().comment("subscribed"));
        } catch (IOException e) {
            remove.run();
        }
        return emitter;
    }

    /**
     * Sends {@code status}, an experiment's finished state, as its {@code status} event to {@code emitter} alone and
     * ends the stream: nothing more will come for it.
     */
    void end(long experimentId, SseEmitter emitter, ExperimentStatus status) {
        String data = json.writeValueAsString(Map.of("experimentId", experimentId, "status", status.name()));
        try {
            emitter.send(SseEmitter.event().name("status").data(data));
            emitter.complete();
        } catch (IOException | IllegalStateException gone) {
            unsubscribe(experimentId, emitter);
        }
    }

    /** Counts a stream of {@code client}'s in, or refuses it when it would pass a limit. */
    private void admit(String client) {
        synchronized (openByClient) {
            int own = openByClient.getOrDefault(client, 0);
            if (own >= MAX_STREAMS_PER_CLIENT) {
                throw new ApiProblem(HttpStatus.TOO_MANY_REQUESTS, own + " event streams are open for "
                        + Texts.cut(client, 80) + ", the most one client may hold; close one (a page of an experiment"
                        + " or the home page, open in another tab) and ask again.");
            }
            if (open >= MAX_STREAMS) {
                throw new ApiProblem(HttpStatus.TOO_MANY_REQUESTS, open + " event streams are open on this "
                        + "instance, the most it serves at once; ask again when one has closed.");
            }
            openByClient.put(client, own + 1);
            open++;
        }
    }

    /**
     * Forgets {@code emitter}, and the experiment's entry with its last subscriber, so that no entry outlives them;
     * its client's count goes down once, however many times a stream is found gone.
     */
    private void unsubscribe(long id, SseEmitter emitter) {
        subscribers.computeIfPresent(id, (k, list) -> {
            list.remove(emitter);
            return list.isEmpty() ? null : list;
        });
        String client = clientOf.remove(emitter);
        if (client != null) {
            synchronized (openByClient) {
                openByClient.computeIfPresent(client, (k, n) -> n == 1 ? null : n - 1);
                open--;
            }
        }
    }

    /**
     * Sends {@code data}, as JSON, as event {@code name} to the experiment's subscribers and to those of all
     * experiments, on this instance and on the others.
     */
    public void publish(long experimentId, String name, Object data) {
        String text = json.writeValueAsString(data);
        deliver(experimentId, name, text);
        relay.forward(experimentId, name, text);
    }

    /** Sends an event that {@code data} (JSON) describes to this instance's subscribers only. */
    void deliver(long experimentId, String name, String data) {
        send(experimentId, name, data);
        if (experimentId != ALL) {
            send(ALL, name, data);
        }
    }

    /** From now on, events also go through {@code relay} to the other instances. */
    void relayThrough(Relay relay) {
        this.relay = relay;
    }

    /**
     * Ends every open stream when the application shuts down. The context publishes this event before the web
     * server's graceful shutdown, which would otherwise wait its whole timeout (30 s) for these never-ending
     * responses of open dashboard pages.
     */
    @EventListener(ContextClosedEvent.class)
    public void completeAll() {
        relay = Relay.NONE;
        subscribers.values().forEach(list -> list.forEach(SseEmitter::complete));
        subscribers.clear();
        clientOf.clear();
        synchronized (openByClient) {
            openByClient.clear();
            open = 0;
        }
    }

    /** Sends a comment on every open stream, dropping those whose client went away. */
    void heartbeat() {
        subscribers.forEach((id, emitters) -> {
            for (SseEmitter emitter : emitters) {
                sendOrDrop(id, emitter, SseEmitter.event().comment("heartbeat"));
            }
        });
    }

    /** Starts the {@linkplain #heartbeat heartbeats}. */
    @Override
    public void start() {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "experiment-events-heartbeat");
            thread.setDaemon(true);
            return thread;
        });
        long period = HEARTBEAT.toMillis();
        executor.scheduleWithFixedDelay(() -> {
            try {
                heartbeat();
            } catch (RuntimeException e) {
                // an exception would end the schedule, and with it every stream's heartbeat
                log.warn("An experiment event stream's heartbeat failed; the next comes in {} s",
                        HEARTBEAT.toSeconds(), e);
            }
        }, period, period, TimeUnit.MILLISECONDS);
        heartbeats = executor;
    }

    @Override
    public void stop() {
        ScheduledExecutorService executor = heartbeats;
        if (executor != null) {
            executor.shutdownNow();
        }
        heartbeats = null;
    }

    @Override
    public boolean isRunning() {
        return heartbeats != null;
    }

    /** Open streams, over all experiments. */
    int subscriberCount() {
        return subscribers.values().stream().mapToInt(List::size).sum();
    }

    /** Experiments (and {@link #ALL}) with an entry of subscribers. */
    int subscribedExperiments() {
        return subscribers.size();
    }

    private void send(long id, String name, String data) {
        List<SseEmitter> emitters = subscribers.get(id);
        if (emitters == null) {
            return;
        }
        for (SseEmitter emitter : emitters) {
            sendOrDrop(id, emitter, SseEmitter.event().name(name).data(data));
        }
    }

    private void sendOrDrop(long id, SseEmitter emitter, SseEmitter.SseEventBuilder event) {
        try {
            emitter.send(event);
        } catch (IOException | IllegalStateException e) {
            // the client went away
            unsubscribe(id, emitter);
        }
    }
}
