package io.perflab.experiment;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Server-sent events about experiments: {@code status} when an experiment changes state, {@code run} when one
 * of its trials finished. Subscribers listen to one experiment or, with id 0, to all of them (the home page).
 */
@Component
public class ExperimentEvents {

    /** Subscriptions to every experiment use this id. */
    public static final long ALL = 0;

    private static final Duration TIMEOUT = Duration.ofMinutes(30);

    private final Map<Long, List<SseEmitter>> subscribers = new ConcurrentHashMap<>();

    /** A new stream of the events of experiment {@code id} (or {@link #ALL}). */
    public SseEmitter subscribe(long id) {
        SseEmitter emitter = new SseEmitter(TIMEOUT.toMillis());
        List<SseEmitter> list = subscribers.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>());
        list.add(emitter);
        Runnable remove = () -> list.remove(emitter);
        emitter.onCompletion(remove);
        emitter.onTimeout(remove);
        emitter.onError(e -> remove.run());
        return emitter;
    }

    /** Sends {@code data} as event {@code name} to the experiment's subscribers and to those of all experiments. */
    public void publish(long experimentId, String name, Object data) {
        send(subscribers.get(experimentId), name, data);
        send(subscribers.get(ALL), name, data);
    }

    /**
     * Ends every open stream when the application shuts down. The context publishes this event before the web
     * server's graceful shutdown, which would otherwise wait its whole timeout (30 s) for these never-ending
     * responses of open dashboard pages.
     */
    @EventListener(ContextClosedEvent.class)
    public void completeAll() {
        subscribers.values().forEach(list -> list.forEach(SseEmitter::complete));
        subscribers.clear();
    }

    /** Open streams, over all experiments. */
    int subscriberCount() {
        return subscribers.values().stream().mapToInt(List::size).sum();
    }

    private static void send(List<SseEmitter> emitters, String name, Object data) {
        if (emitters == null) {
            return;
        }
        for (SseEmitter emitter : emitters) {
            try {
                emitter.send(SseEmitter.event().name(name).data(data));
            } catch (IOException | IllegalStateException e) {
                // The client went away; the emitter's callbacks remove it.
                emitters.remove(emitter);
            }
        }
    }
}
