package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.system.ApiProblem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ExperimentEventsTests {

    private final JsonMapper json = JsonMapper.builder().build();

    /** Records what reaches this instance's subscribers. */
    private static final class Delivered extends ExperimentEvents {
        final List<String> events = new ArrayList<>();

        @Override
        void deliver(long experimentId, String name, String data) {
            events.add(experimentId + " " + name + " " + data);
        }
    }

    @Test
    void shutdownEndsEveryOpenStream() {
        ExperimentEvents events = new ExperimentEvents();
        events.subscribe(7, "tab");
        events.subscribe(ExperimentEvents.ALL, "tab");
        assertThat(events.subscriberCount()).isEqualTo(2);

        events.completeAll();

        assertThat(events.subscriberCount()).isZero();
        assertThatNoException().isThrownBy(() -> events.publish(7, "status", "RUNNING"));
    }

    @Test
    void anExperimentsEntryGoesWithItsLastSubscriber() {
        ExperimentEvents events = new ExperimentEvents();
        events.subscribe(7, "tab").complete();
        events.subscribe(8, "tab").complete();
        events.subscribe(8, "tab");

        // a closed stream is found out, and forgotten, by the next event sent to it
        events.publish(7, "status", Map.of("status", "RUNNING"));
        events.publish(8, "status", Map.of("status", "RUNNING"));

        assertThat(events.subscriberCount()).isEqualTo(1);
        assertThat(events.subscribedExperiments()).as("experiment 7's entry, its subscriber gone").isEqualTo(1);
    }

    /** A stream that records what is sent on it; once its client went away, every send fails as it then does. */
    private static final class RecordedStream extends SseEmitter {
        final List<String> sent = new ArrayList<>();
        boolean gone;

        @Override
        public void send(SseEventBuilder event) throws IOException {
            if (gone) {
                throw new IOException("Broken pipe");
            }
            sent.add(event.build().stream().map(data -> String.valueOf(data.getData())).collect(Collectors.joining()));
        }
    }

    @Test
    void aHeartbeatIsACommentOnEveryOpenStreamAndDropsTheStreamsWhoseClientWentAway() {
        ExperimentEvents events = new ExperimentEvents();
        RecordedStream page = new RecordedStream();
        RecordedStream dashboard = new RecordedStream();
        RecordedStream closedTab = new RecordedStream();
        events.subscribe(7, "tab", page);
        events.subscribe(ExperimentEvents.ALL, "tab", dashboard);
        events.subscribe(8, "tab", closedTab);
        closedTab.gone = true;
        page.sent.clear();
        dashboard.sent.clear();

        events.heartbeat();

        assertThat(page.sent).containsExactly(":heartbeat\n\n");
        assertThat(dashboard.sent).containsExactly(":heartbeat\n\n");
        assertThat(events.subscriberCount()).as("without the stream of the client that went away").isEqualTo(2);
        assertThat(events.subscribedExperiments()).as("experiment 8's entry, its subscriber gone").isEqualTo(2);
    }

    @Test
    void aClientHoldsAtMostItsShareOfStreamsAndGetsOneBackWhenOneCloses() {
        ExperimentEvents events = new ExperimentEvents();
        List<SseEmitter> own = new ArrayList<>();
        for (int i = 0; i < ExperimentEvents.MAX_STREAMS_PER_CLIENT; i++) {
            own.add(events.subscribe(7, "address 192.0.2.1"));
        }

        assertThatThrownBy(() -> events.subscribe(ExperimentEvents.ALL, "address 192.0.2.1"))
                .isInstanceOfSatisfying(ApiProblem.class, p -> assertThat(p.getStatusCode().value()).isEqualTo(429))
                .hasMessage(ExperimentEvents.MAX_STREAMS_PER_CLIENT + " event streams are open for address 192.0.2.1, "
                        + "the most one client may hold; close one (a page of an experiment or the home page, open in "
                        + "another tab) and ask again.");
        // another client is served
        events.subscribe(7, "'ci-bot'");
        // a stream found gone (by the next event sent to it) gives its place back
        own.get(0).complete();
        events.publish(7, "status", Map.of("status", "RUNNING"));
        events.heartbeat();
        events.subscribe(7, "address 192.0.2.1");
        assertThatThrownBy(() -> events.subscribe(7, "address 192.0.2.1")).isInstanceOf(ApiProblem.class);
        assertThat(events.subscriberCount()).isEqualTo(ExperimentEvents.MAX_STREAMS_PER_CLIENT + 1);
    }

    @Test
    void theInstanceHoldsAtMostItsStreamsOverAllClients() {
        ExperimentEvents events = new ExperimentEvents();
        for (int i = 0; i < ExperimentEvents.MAX_STREAMS; i++) {
            events.subscribe(i % 5, "address 198.51.100." + i / ExperimentEvents.MAX_STREAMS_PER_CLIENT);
        }

        assertThatThrownBy(() -> events.subscribe(7, "'someone else'"))
                .isInstanceOf(ApiProblem.class).hasMessage(ExperimentEvents.MAX_STREAMS + " event streams are open on "
                        + "this instance, the most it serves at once; ask again when one has closed.");
        events.completeAll();
        events.subscribe(7, "'someone else'");
    }

    @Test
    void publishedEventsGoToThisInstanceAndThroughTheRelayAsJson() {
        Delivered events = new Delivered();
        List<String> relayed = new ArrayList<>();
        events.relayThrough((id, name, data) -> relayed.add(id + " " + name + " " + data));

        events.publish(7, "status", Map.of("status", "RUNNING"));

        assertThat(events.events).containsExactly("7 status {\"status\":\"RUNNING\"}");
        assertThat(relayed).containsExactly("7 status {\"status\":\"RUNNING\"}");
    }

    @Test
    void anotherInstancesNotificationReachesSubscribersAndOwnOrMalformedOnesDoNot() {
        Delivered events = new Delivered();
        ExperimentEventChannel channel = new ExperimentEventChannel(events, null, null, json);
        ExperimentEventChannel other = new ExperimentEventChannel(new Delivered(), null, null, json);

        channel.received(other.payload(7, "run", "{\"ordinal\":3,\"metrics\":{\"t\":1.5}}"));
        channel.received(channel.payload(7, "run", "{\"ordinal\":4}"));
        channel.received("not json");
        channel.received("{\"origin\":\"elsewhere\",\"experimentId\":\"seven\",\"name\":\"run\",\"data\":{}}");
        channel.received("{\"origin\":\"elsewhere\",\"experimentId\":7,\"data\":{}}");

        assertThat(events.events).containsExactly("7 run {\"ordinal\":3,\"metrics\":{\"t\":1.5}}");
    }

    @Test
    void aLongErrorIsCutToFitPostgresPayloadLimitAndTheRestOfTheEventKept() {
        ExperimentEventChannel channel = new ExperimentEventChannel(new Delivered(), null, null, json);
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("experimentId", 7);
        event.put("status", "FAILED");
        event.put("error", "é".repeat(20_000));

        String payload = channel.payload(7, "run", json.writeValueAsString(event));

        assertThat(payload.getBytes(StandardCharsets.UTF_8).length)
                .isLessThanOrEqualTo(ExperimentEventChannel.MAX_PAYLOAD_BYTES);
        JsonNode data = json.readTree(payload).get("data");
        assertThat(data.get("status").asString()).isEqualTo("FAILED");
        assertThat(data.get("error").asString()).hasSize(ExperimentEventChannel.MAX_TEXT + 1).endsWith("…");
    }

    @Test
    void anEventTooLongEvenWithItsTextsCutGoesAsItsExperimentIdAlone() {
        ExperimentEventChannel channel = new ExperimentEventChannel(new Delivered(), null, null, json);
        Map<String, Double> metrics = new LinkedHashMap<>();
        for (int i = 0; i < 2_000; i++) {
            metrics.put("metric_" + i, i * 1.5);
        }

        String payload = channel.payload(7, "run", json.writeValueAsString(Map.of("metrics", metrics)));

        assertThat(payload.getBytes(StandardCharsets.UTF_8).length)
                .isLessThanOrEqualTo(ExperimentEventChannel.MAX_PAYLOAD_BYTES);
        assertThat(json.readTree(payload).get("data").toString()).isEqualTo("{\"experimentId\":7}");
    }
}
