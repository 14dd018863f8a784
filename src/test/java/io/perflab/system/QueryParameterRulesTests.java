package io.perflab.system;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.method.HandlerMethod;

class QueryParameterRulesTests {

    @RestController
    static class Uploads {

        void upload(@RequestParam(name = "variant", required = false) String variant) {
        }
    }

    /**
     * The refusal of a parameter given twice quoted its values cut but as they came: a line break broke the message
     * (and the log line of any that logs it), an escape acted on the terminal that shows it. Each value is quoted as
     * other messages quote what a client sent.
     */
    @Test
    void theValuesOfAParameterGivenTwiceAreQuotedWithTheirControlCharactersEscaped() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/v1/uploads");
        request.addParameter("variant", "a\n2026-12-06 INFO admin signed in", "b\u001B[2J\u202E");
        HandlerMethod upload = new HandlerMethod(new Uploads(), Uploads.class.getDeclaredMethod("upload",
                String.class));

        assertThatThrownBy(() -> new QueryParameterRules().preHandle(request, new MockHttpServletResponse(), upload))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("Parameter 'variant' given twice ('a\\u000A2026-12-06 INFO admin signed in', "
                        + "'b\\u001B[2J\\u202E'); give each parameter once.")
                .message().doesNotContain("\n", "\u001B", "\u202E");
    }
}
