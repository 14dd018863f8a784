package io.perflab.system;

import org.springframework.core.MethodParameter;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;

/**
 * Every problem a handler answers shows what it quotes from the request as {@link PrintableText.Validator#shown}
 * does: a character that hides or reorders text (a right-to-left override, an escape) is written as its escape,
 * so that no message can be made to read other than it says. Its detail, and each of its {@code errors} as
 * {@link ProblemErrors} shows them, the field cut too.
 */
@ControllerAdvice
class ProblemTextAdvice implements ResponseBodyAdvice<Object> {

    @Override
    public boolean supports(MethodParameter returnType, Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public Object beforeBodyWrite(Object body, MethodParameter returnType, MediaType contentType,
            Class<? extends HttpMessageConverter<?>> converterType, ServerHttpRequest request,
            ServerHttpResponse response) {
        if (body instanceof ProblemDetail problem) {
            shown(problem);
        }
        return body;
    }

    static void shown(ProblemDetail problem) {
        if (problem.getDetail() != null) {
            problem.setDetail(PrintableText.Validator.shown(problem.getDetail()));
        }
        ProblemErrors.shown(problem);
    }
}
