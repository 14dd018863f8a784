package io.perflab.system;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses API request bodies larger than {@code perflab.api.max-body-bytes} (default 16 MiB) with 413: at once when
 * {@code Content-Length} says so, otherwise as soon as the streamed body passes the limit. Nothing is read into
 * memory beyond the limit, and nothing is stored (the handler fails before it writes).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
class RequestSizeLimitFilter extends OncePerRequestFilter {

    private final long maxBytes;

    RequestSizeLimitFilter(@Value("${perflab.api.max-body-bytes:16777216}") long maxBytes) {
        this.maxBytes = maxBytes;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !request.getRequestURI().startsWith(request.getContextPath() + "/api/");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > maxBytes) {
            reject(response, request.getContentLengthLong());
            return;
        }
        try {
            long[] read = {0};
            chain.doFilter(new InspectedBody(request, (bytes, offset, length, end) -> {
                read[0] += length;
                if (read[0] > maxBytes) {
                    throw new BodyTooLargeException(maxBytes);
                }
            }), response);
        } catch (ServletException | IOException | RuntimeException e) {
            if (causedByLimit(e) && !response.isCommitted()) {
                response.resetBuffer();
                reject(response, -1);
                return;
            }
            throw e;
        }
    }

    static boolean causedByLimit(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BodyTooLargeException) {
                return true;
            }
        }
        return false;
    }

    private void reject(HttpServletResponse response, long length) throws IOException {
        response.setStatus(HttpStatus.CONTENT_TOO_LARGE.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding("UTF-8");
        String detail = new BodyTooLargeException(maxBytes).getMessage()
                + (length > 0 ? " (Content-Length " + length + ")" : "");
        response.getWriter().write("{\"title\":\"Content Too Large\",\"status\":413,\"detail\":\"" + detail + "\"}");
    }
}
