package io.perflab.system;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.multipart.MaxUploadSizeExceededException;
import org.springframework.web.multipart.MultipartException;

/**
 * A multipart body over the size limit, or one that cannot be read (no closing boundary, a part without headers),
 * fails while the request is read, before it reaches a controller, so only an advice for every handler sees it; it
 * answers 413 or 400 as a problem with a detail rather than an empty body or a 500.
 */
@ControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class UploadSizeHandler {

    @ExceptionHandler(MaxUploadSizeExceededException.class)
    ResponseEntity<ProblemDetail> tooLarge(MaxUploadSizeExceededException ex) {
        return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(ProblemDetail.forStatusAndDetail(HttpStatus.CONTENT_TOO_LARGE, "The upload is larger than the "
                        + "server accepts (16 MiB per request, each file included): split it into several uploads."));
    }

    @ExceptionHandler(MultipartException.class)
    ResponseEntity<ProblemDetail> malformed(MultipartException ex) {
        // the parser's own words (its exception's message) say nothing a client can act on: the rule does
        String detail = "The multipart body cannot be read: each part must begin with the boundary of the "
                + "Content-Type header and its headers, and the body must end with that boundary followed by '--'.";
        // a problem of the body as a whole: its error names no field
        return ResponseEntity.badRequest().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(ProblemErrors.badRequest(null, detail));
    }
}
