package io.perflab.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.agent.AgentProtocol.Finish;
import io.perflab.system.PrintableText;
import org.junit.jupiter.api.Test;

class AgentProtocolTests {

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
