package io.perflab.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.ProblemDetail;

/**
 * A 400 that the handler makes of an {@link IllegalArgumentException} — what no feature should throw for refused
 * input, but a library may — lists its error under {@code errors}, as every 400 does: it answered with a detail alone.
 */
class ApiExceptionHandlerTests {

    private final ApiExceptionHandler handler = new ApiExceptionHandler();

    @Test
    void anIllegalArgumentIsA400WithOneErrorOfTheInputAsAWhole() {
        ProblemDetail problem = handler.badArgument(new IllegalArgumentException("at most 16 labels"));

        assertThat(problem.getStatus()).isEqualTo(400);
        assertThat(problem.getDetail()).isEqualTo("at most 16 labels");
        assertThat(problem.getProperties()).containsKey("errors");
        List<?> errors = (List<?>) problem.getProperties().get("errors");
        assertThat(errors).singleElement().satisfies(error -> {
            Map<?, ?> entry = (Map<?, ?>) error;
            assertThat(entry.get("field")).isNull();
            assertThat(entry.get("message")).isEqualTo("at most 16 labels");
        });
    }

    @Test
    void anIllegalArgumentWithoutAMessageIsStillA400WithAnError() {
        ProblemDetail problem = handler.badArgument(new IllegalArgumentException());

        assertThat(problem.getStatus()).isEqualTo(400);
        assertThat((List<?>) problem.getProperties().get("errors")).singleElement()
                .satisfies(error -> assertThat(((Map<?, ?>) error).get("message")).isNotEqualTo("null"));
        assertThat(problem.getDetail()).isNotBlank().isNotEqualTo("null");
    }
}
