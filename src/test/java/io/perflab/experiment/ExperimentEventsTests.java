package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

import org.junit.jupiter.api.Test;

class ExperimentEventsTests {

    @Test
    void shutdownEndsEveryOpenStream() {
        ExperimentEvents events = new ExperimentEvents();
        events.subscribe(7);
        events.subscribe(ExperimentEvents.ALL);
        assertThat(events.subscriberCount()).isEqualTo(2);

        events.completeAll();

        assertThat(events.subscriberCount()).isZero();
        assertThatNoException().isThrownBy(() -> events.publish(7, "status", "RUNNING"));
    }
}
