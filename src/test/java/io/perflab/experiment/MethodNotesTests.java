package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MethodNotesTests {

    /** A fixed 2 s warmup read as 2.57-4.56 s and "settled": the page now says what each entry measures. */
    @Test
    void anEngineExperimentsMeasurementSaysWhatItsWarmupEntriesMeasure() {
        String measurement = MethodNotes.measurement(view("engine"));

        assertThat(measurement).contains("warmup_seconds in its environment is how long the warmup ran from its "
                + "first one-second step", "warmup_setup_seconds what came before that step (the meter's first "
                + "reading", "warmup_settled, for an auto warmup only",
                "load_average was read before its load started");
        assertThat(MethodNotes.measurement(view("upload"))).doesNotContain("warmup");
    }

    private static ExperimentView view(String kind) {
        return new ExperimentView(1, "x", null, kind, "COMPLETED", null, null, null, null, null, null, null, null,
                "tester", null, null, Map.of(), Map.of(), Map.of(), List.of());
    }
}
