package io.perflab.system;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * API bodies of text (JSON, text/plain, CSV) must be valid UTF-8: a body with an invalid or overlong sequence (such
 * as {@code C0 BC}, which a lenient decoder reads as {@code <}) is refused with 400 instead of decoded. The bytes
 * are checked as they stream past, so nothing extra is held in memory. Uploads decode their bodies and parts
 * strictly themselves, with the line of the bad byte, so they are left to that.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
class Utf8BodyFilter extends OncePerRequestFilter {

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String type = request.getContentType();
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return !path.startsWith("/api/") || path.startsWith("/api/v1/uploads") || type == null
                || !(type.contains("json") || type.startsWith("text/"));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        chain.doFilter(new InspectedBody(request, new Utf8Check()), response);
    }

    /** The body is not UTF-8: where, in bytes from its start. */
    static final class InvalidUtf8Exception extends IOException {

        InvalidUtf8Exception(long offset) {
            super("the body is not valid UTF-8: an invalid or overlong byte sequence starts at byte " + offset
                    + "; send the text encoded as UTF-8");
        }
    }

    /** Decodes what passes (into a scratch buffer that is thrown away) only to find invalid sequences. */
    private static final class Utf8Check implements InspectedBody.Inspection {

        private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        private final ByteBuffer pending = ByteBuffer.allocate(8);
        private final CharBuffer scratch = CharBuffer.allocate(8192);
        private long offset;

        @Override
        public void inspect(byte[] b, int off, int n, boolean end) throws IOException {
            ByteBuffer input = ByteBuffer.allocate(pending.position() + n);
            pending.flip();
            long start = offset - pending.remaining();
            input.put(pending).put(b, off, n).flip();
            pending.clear();
            while (true) {
                scratch.clear();
                CoderResult result = decoder.decode(input, scratch, end);
                if (result.isError()) {
                    throw new InvalidUtf8Exception(start + input.position());
                }
                if (result.isUnderflow()) {
                    break;
                }
            }
            pending.put(input);
            offset += n;
            if (end && pending.position() > 0) {
                throw new InvalidUtf8Exception(offset - pending.position());
            }
        }
    }
}
