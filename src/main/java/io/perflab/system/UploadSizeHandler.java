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

/**
 * A multipart upload over the size limit fails while the request is read, before it reaches a controller, so only
 * an advice for every handler sees it; it answers 413 as a problem with a detail rather than an empty body.
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
}
