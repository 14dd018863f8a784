package io.perflab.system;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.beans.TypeMismatchException;
import org.springframework.boot.web.error.ErrorAttributeOptions;
import org.springframework.boot.webmvc.error.ErrorAttributes;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.ErrorResponse;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * The container's error path: one HTML page for browsers ({@code templates/error/error.html}) and
 * {@code application/problem+json} for everything else ({@link #wantsPage}), so an API client never gets an
 * HTML page or Spring's default JSON shape.
 */
@Controller
@RequestMapping("${server.error.path:/error}")
class ErrorPagesController implements ErrorController {

    private static final String VIEW = "error/error";

    private final ErrorAttributes errorAttributes;

    ErrorPagesController(ErrorAttributes errorAttributes) {
        this.errorAttributes = errorAttributes;
    }

    /** The error page or the problem, as {@link #wantsPage} tells from the request's {@code Accept}. */
    @RequestMapping
    Object error(HttpServletRequest request) {
        return wantsPage(request) ? errorPage(request) : problem(request);
    }

    /**
     * Whether the client asks for the error page rather than a problem: its {@code Accept} gives HTML a quality above
     * 0, and JSON none or one no higher, HTML's by a range of text ({@code text/html}, {@code text/*}: for
     * {@code *}{@code /*}, as from a client that asks for nothing in particular, the problem). Each format has the
     * quality of the most specific range that includes it (RFC 9110, 12.5.1), so {@code text/html;q=0} refuses the
     * page whatever else the header accepts. Spring's choice between two mappings ({@code produces = "text/html"} and
     * none) took any range that named HTML, whatever its quality: {@code text/html;q=0, application/json} got the
     * page.
     */
    static boolean wantsPage(HttpServletRequest request) {
        List<MediaType> accepted;
        try {
            accepted = MediaType.parseMediaTypes(Collections.list(request.getHeaders(HttpHeaders.ACCEPT)));
        } catch (InvalidMediaTypeException notAList) {
            // refused as such before any handler; the error of a request that still reaches here answers a problem
            return false;
        }
        MediaType html = AcceptedTypes.mostSpecific(accepted, MediaType.TEXT_HTML);
        double json = Math.max(AcceptedTypes.quality(accepted, MediaType.APPLICATION_PROBLEM_JSON),
                AcceptedTypes.quality(accepted, MediaType.APPLICATION_JSON));
        if (html == null || html.getQualityValue() == 0) {
            return false;
        }
        return json == 0 || !html.isWildcardType() && html.getQualityValue() >= json;
    }

    private ModelAndView errorPage(HttpServletRequest request) {
        HttpStatus status = status(request);
        ModelAndView page = new ModelAndView(VIEW, status);
        page.addObject("status", status.value());
        page.addObject("reason", status.getReasonPhrase());
        page.addObject("detail", detail(request, status));
        page.addObject("path", attributes(request).get("path"));
        return page;
    }

    private ResponseEntity<ProblemDetail> problem(HttpServletRequest request) {
        HttpStatus status = status(request);
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail(request, status));
        Object path = attributes(request).get("path");
        ResponseEntity.BodyBuilder answer = ResponseEntity.status(status)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON);
        if (path != null && UndecodableParameters.decoded(path.toString()) == null) {
            // a path as sent that is not %-escaped UTF-8 (/api/v1/experiments/%G1) is no URI, and Spring's guard
            // against a download named after the path's last segment fails decoding it: the safe name it would
            // give is given here
            answer.header(HttpHeaders.CONTENT_DISPOSITION, "inline;filename=f.txt");
        } else if (path != null) {
            problem.setInstance(URI.create(path.toString()));
        }
        if (status == HttpStatus.BAD_REQUEST) {
            // every 400 names what was wrong in errors[]: the parameter the filter refused, as every refused parameter
            // is named ("" names none), else the request as a whole (a path Tomcat could not decode)
            String parameter = request.getAttribute(UndecodableParameters.REFUSED) instanceof String refused
                    && !refused.isEmpty() ? refused : null;
            problem.setProperty(ProblemErrors.PROPERTY, List.of(ProblemErrors.entry(parameter, problem.getDetail())));
        }
        return answer.body(problem);
    }

    /** What went wrong, with what it quotes from the request {@link PrintableText.Validator#shown shown}. */
    private String detail(HttpServletRequest request, HttpStatus status) {
        return PrintableText.Validator.shown(said(request, status));
    }

    private String said(HttpServletRequest request, HttpStatus status) {
        Throwable error = errorAttributes.getError(new ServletWebRequest(request));
        if (error instanceof TypeMismatchException mismatch) {
            return FieldMessages.typeMismatch(mismatch);
        }
        if (error instanceof HttpMediaTypeNotAcceptableException notAcceptable) {
            return notAcceptable(request, notAcceptable.getSupportedMediaTypes());
        }
        if (error instanceof ErrorResponse response && !(error instanceof NoResourceFoundException)
                && response.getBody().getDetail() != null && !status.is5xxServerError()) {
            return response.getBody().getDetail();
        }
        if (status.is5xxServerError()) {
            return "PerfLab hit an internal error; the server log has the details.";
        }
        Object message = askedForItself(request) ? null : attributes(request).get("message");
        boolean said = message != null && !message.toString().isBlank()
                && !message.toString().equals(status.getReasonPhrase()) && !(error instanceof NoResourceFoundException);
        if (said) {
            return message.toString();
        }
        if (status == HttpStatus.NOT_FOUND) {
            return "Nothing at " + request.getMethod() + " " + attributes(request).getOrDefault("path",
                    request.getRequestURI()) + ". The API lives under /api/v1 (see /v3/api-docs).";
        }
        return status.getReasonPhrase();
    }

    /** What an operation answers, and that the request's {@code Accept} takes none of it. */
    private static String notAcceptable(HttpServletRequest request, List<MediaType> answered) {
        String accept = String.join(", ", Collections.list(request.getHeaders(HttpHeaders.ACCEPT)));
        return "The Accept header ('" + Texts.cut(accept, 200) + "') takes none of what this answers: "
                + answered.stream().map(MediaType::toString).collect(Collectors.joining(", ")) + ".";
    }

    private Map<String, Object> attributes(HttpServletRequest request) {
        return errorAttributes.getErrorAttributes(new ServletWebRequest(request),
                ErrorAttributeOptions.of(ErrorAttributeOptions.Include.MESSAGE, ErrorAttributeOptions.Include.PATH));
    }

    /** Whether the request is one of the error path itself, not an error forwarded to it. */
    private static boolean askedForItself(HttpServletRequest request) {
        return request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE) == null
                && request.getAttribute(RequestDispatcher.ERROR_EXCEPTION) == null;
    }

    /**
     * The status of the error being answered; 404 for a request of the error path itself, which answers no error
     * (it said 500, "an internal error").
     */
    private static HttpStatus status(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        if (askedForItself(request)) {
            return HttpStatus.NOT_FOUND;
        }
        if (code instanceof Integer value) {
            HttpStatus status = HttpStatus.resolve(value);
            if (status != null) {
                return status;
            }
        }
        return HttpStatus.INTERNAL_SERVER_ERROR;
    }
}
