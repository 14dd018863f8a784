package io.perflab.system;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A query parameter or form field whose %-escapes decode to bytes that are not UTF-8 ({@code ?name=%FF}), or that
 * holds a {@code %} that starts no escape ({@code ?name=%ZZ}), is refused with 400 naming it, as a problem for the
 * API and the error page for a browser. Tomcat refuses it where the first handler or filter reads a parameter, with
 * a message that calls the parameter "ignored" and points to debug logging, and logs the refusal of the client's
 * mistake as a server error with its stack trace. A form larger than the server reads (413) and more parameters than
 * it reads, which Tomcat refuses the same way, are said so. A query string is checked before the request is
 * handled, whether or not its handler reads the parameter. The problem's error names the parameter as its field.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 6)
class UndecodableParameters extends OncePerRequestFilter {

    /** How much of the parameter as sent the message quotes. */
    private static final int QUOTED = 60;

    /**
     * The request attribute that names, for the problem's error, the parameter a 400 of this filter refuses as the
     * request wrote it, whole ({@link ProblemErrors} shows it), or holds "" when it refuses no one parameter (a form
     * field, too many parameters).
     */
    static final String REFUSED = UndecodableParameters.class.getName() + ".refused";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String undecodable = firstUndecodable(request.getQueryString());
        if (undecodable != null) {
            // refused before any handler reads it: a page that reads it while rendering (the sign-in page's
            // ?error) logged the template's failure with its stack trace, and one that never read it answered 200
            request.setAttribute(REFUSED, name(undecodable));
            response.sendError(HttpStatus.BAD_REQUEST.value(), "The query parameter '"
                    + Texts.cut(name(undecodable), QUOTED) + "' (" + Texts.cut(undecodable, QUOTED) + ")" + ADVICE);
            return;
        }
        try {
            chain.doFilter(request, response);
        } catch (ServletException | RuntimeException e) {
            InvalidParameterException refused = refused(e);
            if (refused == null || response.isCommitted()) {
                throw e;
            }
            // Tomcat refuses the parameters whole for these too, with words of its own configuration
            String said = String.valueOf(refused.getMessage());
            if (refused.getErrorCode() == HttpStatus.CONTENT_TOO_LARGE.value()) {
                response.sendError(refused.getErrorCode(), "The form's body is larger than the server reads as "
                        + "form fields: send less.");
            } else if (said.startsWith("More than the maximum number of request parameters")) {
                request.setAttribute(REFUSED, "");
                response.sendError(HttpStatus.BAD_REQUEST.value(), "The request has more parameters, of its query "
                        + "and its form together, than the server reads: send fewer.");
            } else {
                // the query decodes (checked above): a form field does not
                request.setAttribute(REFUSED, "");
                response.sendError(HttpStatus.BAD_REQUEST.value(), "A form field" + ADVICE);
            }
        }
    }

    private static InvalidParameterException refused(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof InvalidParameterException refused) {
                return refused;
            }
        }
        return null;
    }

    /** What to do about text that is not %-escaped UTF-8, after what it is. */
    private static final String ADVICE = " is not %-escaped UTF-8 text: encode the text as UTF-8 and %-escape its "
            + "bytes (é is %C3%A9).";

    /**
     * What is wrong with a request's path as sent ({@code /experiments/%FF}), which Tomcat refuses before any filter
     * sees it ({@link ProblemErrorReportValve}); null when it is %-escaped UTF-8.
     */
    static String pathMessage(String path) {
        return path == null || decodes(path) ? null
                : "The path '" + PrintableText.Validator.shown(Texts.cut(path, QUOTED)) + "'" + ADVICE;
    }

    /** The first parameter of {@code query}, as sent, that is not %-escaped UTF-8; null if none is. */
    private static String firstUndecodable(String query) {
        return query == null ? null
                : Arrays.stream(query.split("&")).filter(parameter -> !decodes(parameter)).findFirst().orElse(null);
    }

    /** The name of {@code parameter} ({@code name=value} as sent), decoded where it can be. */
    private static String name(String parameter) {
        String name = parameter.split("=", 2)[0];
        return decodes(name) ? decoded(name) : name;
    }

    private static boolean decodes(String text) {
        return decoded(text) != null;
    }

    /** {@code text} with its %-escapes and {@code +} decoded as UTF-8, or null when it is not %-escaped UTF-8. */
    static String decoded(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int high = i + 2 < text.length() ? Character.digit(text.charAt(i + 1), 16) : -1;
            int low = i + 2 < text.length() ? Character.digit(text.charAt(i + 2), 16) : -1;
            if (c == '%') {
                if (high < 0 || low < 0) {
                    return null;
                }
                bytes.write(high * 16 + low);
                i += 2;
            } else if (c == '+') {
                bytes.write(' ');
            } else {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
