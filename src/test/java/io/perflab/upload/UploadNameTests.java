package io.perflab.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** An upload's name: refused when given too long, as POST /experiments refuses it; cut only when made here. */
class UploadNameTests {

    private static final String GO = "BenchmarkJoin-2 20 910.9 ns/op\nBenchmarkJoin-2 20 911.9 ns/op\n";

    private ValidUpload validate(String benchmark, String name) {
        ParsedUpload parsed = new UploadFormats().parse(GO, UploadFormat.GOBENCH, "with", null);
        return UploadValidator.validate(parsed, benchmark, name, GitInfo.NONE, Map.of(), JsonContent.MAPPER);
    }

    @Test
    void refusesANameLongerThan200CharactersNamingTheParameter() {
        // was cut to 200 characters without a word
        assertThatThrownBy(() -> validate("join", "n".repeat(201))).isInstanceOf(InvalidUploadException.class)
                .hasMessage("'name' is longer than 200 characters.");
        assertThat(validate("join", "n".repeat(200)).name()).hasSize(200);
    }

    @Test
    void cutsOnlyANameMadeFromTheBenchmark() {
        assertThat(validate("b".repeat(200), null).name()).hasSize(200);
    }
}
