package io.perflab.experiment;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
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
 */
@Component
public class ExperimentEvents {

    /** Subscriptions to every experiment use this id. */
    public static final long ALL = 0;

    private static final Duration TIMEOUT = Duration.ofMinutes(30);

    /** Carries events to the subscribers of the other instances. */
    @FunctionalInterface
    interface Relay {
        Relay NONE = (experimentId, name, json) -> { };

        void forward(long experimentId, String name, String json);
    }

    private final Map<Long, List<SseEmitter>> subscribers = new ConcurrentHashMap<>();
    private final JsonMapper json;
    private volatile Relay relay = Relay.NONE;

    /** Events of this process only, their data written by a default JSON mapper. */
    public ExperimentEvents() {
        this(JsonMapper.builder().build());
    }

    @Autowired
    public ExperimentEvents(JsonMapper json) {
        this.json = json;
    }

    /** A new stream of the events of experiment {@code id} (or {@link #ALL}), opened with a comment. */
    public SseEmitter subscribe(long id) {
        SseEmitter emitter = new SseEmitter(TIMEOUT.toMillis());
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

    /** Forgets {@code emitter}, and the experiment's entry with its last subscriber, so that no entry outlives them. */
    private void unsubscribe(long id, SseEmitter emitter) {
        subscribers.computeIfPresent(id, (k, list) -> {
            list.remove(emitter);
            return list.isEmpty() ? null : list;
        });
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
            try {
                emitter.send(SseEmitter.event().name(name).data(data));
            } catch (IOException | IllegalStateException e) {
                // the client went away
                unsubscribe(id, emitter);
            }
        }
    }
}
