package io.perflab.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.agent.AgentProtocol.Finish;
import io.perflab.agent.AgentProtocol.PostedPair;
import io.perflab.agent.AgentProtocol.PostedTrial;
import io.perflab.runner.experiment.PairPlacement;
import io.perflab.runner.experiment.PairResult;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import io.perflab.system.PrintableText;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AgentProtocolTests {

    /**
     * A registration says each count its agent makes, as the service reads it: {@code systemCalls} and
     * {@code hardwareCounters}, each true, false or null, and nothing else of them.
     */
    @Test
    void aRegistrationCarriesWhatItsAgentCountsAsTwoFields() {
        tools.jackson.databind.json.JsonMapper json = tools.jackson.databind.json.JsonMapper.builder().build();
        AgentProtocol.Registration registration = AgentProtocol.Registration.of("host", Map.of(), Map.of(), false,
                new HostCounts(true, false));

        tools.jackson.databind.JsonNode sent = json.valueToTree(registration);

        assertThat(sent.get("systemCalls").asBoolean()).isTrue();
        assertThat(sent.get("hardwareCounters").isBoolean()).isTrue();
        assertThat(sent.get("hardwareCounters").asBoolean()).isFalse();
        assertThat(sent.has("counts")).isFalse();
        assertThat(json.treeToValue(sent, AgentProtocol.Registration.class).counts())
                .isEqualTo(new HostCounts(true, false));
        assertThat(json.readValue("{\"name\": \"older\", \"runsCommands\": false}",
                AgentProtocol.Registration.class).counts()).as("an agent of an earlier release")
                .isEqualTo(HostCounts.UNSAID);
    }

    /**
     * A run's failure quotes what it printed: colored output, a CR of a Windows line, a tab, a right-to-left mark, a
     * long line. The service refused such a finish, and the experiment stayed on an agent that had moved on.
     */
    @Test
    void aFinishCarriesAMessageTheServiceTakesWhateverTheRunPrinted() {
        String printed = "stopped after 4 failed trials; last failure: \u001b[31mboom\u001b[0m\r\n\tat x \u202egnp"
                + " \ud800 " + "é".repeat(5000);

        String message = Finish.of("FAILED", printed).message();

        assertThat(message).startsWith("stopped after 4 failed trials; last failure:  [31mboom [0m \n at x  gnp")
                .hasSize(Finish.MAX_MESSAGE).endsWith("é…");
        assertThat(PrintableText.Validator.firstProblem(message, true)).isNegative();
        assertThat(Finish.of("COMPLETED", null).message()).isNull();
        assertThat(Finish.of("FAILED", "the trial JVM exited with status 1\nits output").message())
                .isEqualTo("the trial JVM exited with status 1\nits output");
    }

    /**
     * A trial's environment holds what the run recorded: a command of several lines, what its output said. Pages and
     * reports show it, and the service refuses control and hidden characters there; the agent shows them as '?'.
     */
    @Test
    void aTrialsEnvironmentIsPostedAsTheServiceTakesIt() {
        Map<String, String> recorded = new LinkedHashMap<>();
        recorded.put("host", "a\u001b[31mred\u202eevil");
        recorded.put("command", "sleep 1\r\n\techo done");
        recorded.put("out\u0007put", "x");
        recorded.put("", "no key");
        recorded.put("long", "x".repeat(PostedTrial.MAX_ENVIRONMENT_VALUE - 2) + "😀😀");
        // a command's output naming a long machine key, and another that is the same key once cut
        String longKey = "output." + "k".repeat(PostedTrial.MAX_ENVIRONMENT_KEY);
        recorded.put(longKey + "1", "first");
        recorded.put(longKey + "2", "second");
        TrialResult result = new TrialResult("without", 0, TrialStatus.OK, Instant.EPOCH, Instant.EPOCH, 1,
                Map.of("x", 1.0), recorded, null);

        Map<String, String> posted = PostedTrial.of(result).environment();

        assertThat(posted).containsEntry("host", "a?[31mred?evil").containsEntry("command", "sleep 1\r\n\techo done")
                .containsEntry("out?put", "x").doesNotContainKey("");
        // cut before the emoji whose first half the limit falls on (the half was posted as '?')
        assertThat(posted.get("long")).hasSize(PostedTrial.MAX_ENVIRONMENT_VALUE - 1).endsWith("xx…");
        assertThat(posted.keySet()).allSatisfy(key -> assertThat(key).hasSizeLessThanOrEqualTo(
                PostedTrial.MAX_ENVIRONMENT_KEY));
        assertThat(posted).containsEntry(longKey.substring(0, PostedTrial.MAX_ENVIRONMENT_KEY - 1) + "…", "first");
    }

    /**
     * A command's stderr may hold a NUL, which PostgreSQL refuses in text: a service of a release that stored errors as
     * posted answered 500 and the agent retried for ever. The agent posts the NUL as U+FFFD, as services now store it.
     */
    @Test
    void anErrorIsPostedWithEachNulReplacedOfATrialAndOfAPair() {
        TrialResult trial = new TrialResult("without", 0, TrialStatus.FAILED, Instant.EPOCH, Instant.EPOCH, 1,
                Map.of(), Map.of(), "exit 3: bad\0byte");
        PairResult pair = new PairResult(0, TrialStatus.FAILED, new PairPlacement("0", "1", VariantName.WITHOUT),
                List.of(trial), Instant.EPOCH, Instant.EPOCH, Duration.ZERO, Duration.ZERO, "\0pair\0");

        PostedPair posted = PostedPair.of(pair);

        assertThat(PostedTrial.of(trial).error()).isEqualTo("exit 3: bad\uFFFDbyte");
        assertThat(posted.error()).isEqualTo("\uFFFDpair\uFFFD");
        assertThat(posted.results().get(0).error()).isEqualTo("exit 3: bad\uFFFDbyte");
    }

    @Test
    void aLongMessageIsNeverCutInsideACharacter() {
        String emoji = "😀".repeat(Finish.MAX_MESSAGE);

        for (String message : new String[] {emoji, "x" + emoji}) {
            String cut = Finish.of("FAILED", message).message();
            assertThat(cut.length()).isLessThanOrEqualTo(Finish.MAX_MESSAGE);
            assertThat(PrintableText.Validator.firstProblem(cut, true)).isNegative();
        }
    }
}
