package io.perflab.system;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodParameter;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.StringUtils;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RequestPart;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * A parameter that an API request does not take is refused naming it and those it takes, as an unknown field of a
 * body is: ignored, a misspelt one said nothing. {@code POST /api/v1/uploads?benchmrk=parser} stored the upload under
 * the name its output gave, {@code ?brnach=feature} on no branch, and {@code GET /api/v1/experiments?stauts=failed}
 * listed every experiment, as if each had failed, to a script that might delete them.
 *
 * <p>Checked before the handler runs, for the REST handlers under {@code /api/}: the query's names against those of
 * their {@code @RequestParam}s and of the fields of a record their parameters are bound to; the refusal names the
 * parameter as its error's field. A handler that takes a map of every parameter takes any. Pages take any: a link
 * may carry what the page does not read.
 */
@Configuration
class KnownParameters implements WebMvcConfigurer, HandlerInterceptor {

    /** How much of an unknown name the message quotes. */
    private static final int QUOTED_LENGTH = 60;

    private static final ParameterNameDiscoverer NAMES = new DefaultParameterNameDiscoverer();

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this).addPathPatterns("/api/**");
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (!(handler instanceof HandlerMethod method)
                || !AnnotatedElementUtils.hasAnnotation(method.getBeanType(), RestController.class)) {
            return true;
        }
        Set<String> taken = taken(method);
        if (taken == null) {
            return true;
        }
        // the query's names only: a form body's fields are no parameters of the API (its bodies are JSON or text)
        String query = request.getQueryString();
        for (String parameter : query == null ? new String[0] : query.split("&")) {
            String written = parameter.split("=", 2)[0];
            String name = UndecodableParameters.decoded(written);
            name = name == null ? written : name;
            if (!parameter.isEmpty() && !taken.contains(name)) {
                // the field is the name whole, which the problem shows as it shows every field
                throw InvalidInputException.ofSentence(name, PrintableText.Validator.shown("Parameter '"
                        + Texts.cut(name, QUOTED_LENGTH) + "' is not one " + request.getMethod() + " "
                        + request.getRequestURI() + " takes; "
                        + (taken.isEmpty() ? "it takes none." : "it takes: " + String.join(", ", taken) + ".")));
            }
        }
        return true;
    }

    /** The names of the parameters {@code method} reads, sorted; null when it reads them all. */
    private static Set<String> taken(HandlerMethod method) {
        Set<String> names = new TreeSet<>();
        for (MethodParameter parameter : method.getMethodParameters()) {
            Class<?> type = parameter.getParameterType();
            RequestParam annotation = parameter.getParameterAnnotation(RequestParam.class);
            if (annotation != null) {
                String named = StringUtils.hasText(annotation.name()) ? annotation.name() : annotation.value();
                if (!StringUtils.hasText(named) && Map.class.isAssignableFrom(type)) {
                    return null;
                }
                parameter.initParameterNameDiscovery(NAMES);
                if (StringUtils.hasText(named)) {
                    names.add(named);
                } else if (parameter.getParameterName() != null) {
                    names.add(parameter.getParameterName());
                }
            } else if (type.isRecord() && !parameter.hasParameterAnnotation(RequestBody.class)
                    && !parameter.hasParameterAnnotation(RequestPart.class)) {
                Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName).forEach(names::add);
            }
        }
        return names;
    }
}
