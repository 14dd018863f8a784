package io.perflab.experiment;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Reads the new-experiment form's fields itself, so that a field that is not %-escaped UTF-8 ({@code name=%FF}) is
 * said on the form by that field instead of on an error page that names no field (Tomcat refuses the whole form).
 * Such a field's value is read with U+FFFD for its bad bytes, and its name is left for
 * {@link ExperimentPagesController} in {@link #UNDECODABLE}, which refuses it. A form larger than
 * {@value #MAX_BYTES} bytes, or of unknown length, is left to Tomcat's rules.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 7)
class NewExperimentFormBody extends OncePerRequestFilter {

    /** The request attribute that lists the fields that were not %-escaped UTF-8. */
    static final String UNDECODABLE = NewExperimentFormBody.class.getName() + ".undecodable";

    /** Far more than the form's fields take; Tomcat reads up to 2 MiB. */
    static final int MAX_BYTES = 1 << 20;

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String type = request.getContentType();
        return !"POST".equals(request.getMethod())
                || !(request.getContextPath() + "/experiments/new").equals(request.getRequestURI())
                || type == null || !type.startsWith("application/x-www-form-urlencoded")
                || request.getContentLengthLong() < 0 || request.getContentLengthLong() > MAX_BYTES;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        byte[] body = request.getInputStream().readNBytes(MAX_BYTES);
        Map<String, List<String>> fields = new LinkedHashMap<>();
        List<String> undecodable = new ArrayList<>();
        // the query's parameters first, as Tomcat joins them; the body's stream is read, so Tomcat parses only those
        request.getParameterMap().forEach((name, values) -> fields.put(name, new ArrayList<>(List.of(values))));
        for (String pair : new String(body, StandardCharsets.ISO_8859_1).split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String rawName = equals < 0 ? pair : pair.substring(0, equals);
            String rawValue = equals < 0 ? "" : pair.substring(equals + 1);
            String name = decoded(rawName, false);
            String value = decoded(rawValue, false);
            if (name == null || value == null) {
                name = name == null ? decoded(rawName, true) : name;
                undecodable.add(name);
                value = value == null ? decoded(rawValue, true) : value;
            }
            fields.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
        }
        if (!undecodable.isEmpty()) {
            request.setAttribute(UNDECODABLE, List.copyOf(undecodable));
        }
        chain.doFilter(new FormFields(request, fields), response);
    }

    /** {@code text} with its %-escapes and {@code +} decoded as UTF-8; null if it is not, unless {@code lenient}. */
    static String decoded(String text, boolean lenient) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int high = i + 2 < text.length() ? Character.digit(text.charAt(i + 1), 16) : -1;
            int low = i + 2 < text.length() ? Character.digit(text.charAt(i + 2), 16) : -1;
            if (c == '%' && high >= 0 && low >= 0) {
                bytes.write(high * 16 + low);
                i += 2;
            } else if (c == '%' && !lenient) {
                return null;
            } else {
                bytes.write(c == '+' ? ' ' : c);
            }
        }
        CodingErrorAction action = lenient ? CodingErrorAction.REPLACE : CodingErrorAction.REPORT;
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(action).onUnmappableCharacter(action)
                    .decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** The request with the fields read here. */
    private static final class FormFields extends HttpServletRequestWrapper {

        private final Map<String, String[]> fields = new LinkedHashMap<>();

        FormFields(HttpServletRequest request, Map<String, List<String>> fields) {
            super(request);
            fields.forEach((name, values) -> this.fields.put(name, values.toArray(String[]::new)));
        }

        @Override
        public String getParameter(String name) {
            String[] values = fields.get(name);
            return values == null ? null : values[0];
        }

        @Override
        public Map<String, String[]> getParameterMap() {
            return Collections.unmodifiableMap(fields);
        }

        @Override
        public Enumeration<String> getParameterNames() {
            return Collections.enumeration(fields.keySet());
        }

        @Override
        public String[] getParameterValues(String name) {
            String[] values = fields.get(name);
            return values == null ? null : values.clone();
        }
    }
}
