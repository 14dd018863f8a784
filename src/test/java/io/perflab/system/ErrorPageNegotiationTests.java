package io.perflab.system;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.mock.web.MockHttpServletRequest;

/**
 * Which Accept headers get the error page and which the problem ({@link ErrorPagesController#wantsPage}): each
 * format has the quality of the most specific range that includes it (RFC 9110, 12.5.1), q=0 refusing it.
 */
class ErrorPageNegotiationTests {

    @ParameterizedTest(name = "{0} → page: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            text/html                                                       | true
            text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8 | true
            text/*                                                          | true
            application/json, text/html                                     | true
            application/json;q=0, text/html;q=0.1                           | true
            */*;q=0.5, text/html;q=0.5                                      | true
            text/html;q=0, application/json                                 | false
            text/html;q=0                                                   | false
            text/*, text/html;q=0                                           | false
            text/html;q=0, */*                                              | false
            application/json, text/html;q=0.5                               | false
            application/problem+json, text/*;q=0.9                          | false
            */*                                                             | false
            application/xml                                                 | false
            ''                                                              | false
            a/b/c                                                           | false
            """)
    void anAcceptGetsThePageOnlyWhenItTakesHtmlAtLeastAsGladlyAsJson(String accept, boolean page) {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/no-such-page");
        if (!accept.isEmpty()) {
            request.addHeader("Accept", accept);
        }

        assertThat(ErrorPagesController.wantsPage(request)).as(accept).isEqualTo(page);
    }
}
