package io.perflab.system;

import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import org.apache.catalina.core.StandardHost;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.cfg.MutableCoercionConfig;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.type.LogicalType;

/** Cross-cutting beans: the clock (tests replace it) and what every page's layout needs. */
@Configuration(proxyBeanMethods = false)
class SystemConfig {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    /**
     * Tomcat answers what it refuses itself in the API's error shape ({@link ProblemErrorReportValve}), written by
     * the JSON mapper that writes every other problem.
     */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemErrorReports(JsonMapper json) {
        return factory -> factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof StandardHost host) {
                // the host adds a valve of its error report class when it starts unless its pipeline holds one
                host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
                if (Arrays.stream(host.getPipeline().getValves())
                        .noneMatch(ProblemErrorReportValve.class::isInstance)) {
                    host.getPipeline().addValve(new ProblemErrorReportValve(json));
                }
            }
        });
    }

    /**
     * Request bodies are read strictly, so that a mistake is refused rather than half-understood: an unknown or
     * misspelt field, a key given twice, a fraction where a count belongs, a null for a number, text where a number
     * or true/false belongs ({@code "runsPerVariant": ""} was read as "left out", {@code "clientThreads": "16"} and
     * {@code "encryption": 1} were converted), as {@code POST /api/v1/analyze} and uploads already refused them.
     * A time is ISO-8601 text, never a number of seconds ({@link TimeText}).
     * A number or true/false where text belongs is refused as "must be text" ({@code "name": 123} was stored as
     * "123"), but for engine options' values, which read it as written ({@link ScalarText}).
     */
    @Bean
    JsonMapperBuilderCustomizer strictRequestBodies() {
        return builder -> builder
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .withCoercionConfig(LogicalType.Integer, SystemConfig::refuseText)
                .withCoercionConfig(LogicalType.Float, SystemConfig::refuseText)
                .withCoercionConfig(LogicalType.Boolean, config -> refuseText(config)
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail))
                .withCoercionConfig(LogicalType.Textual, config -> config
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
                .addModule(new SimpleModule("perflab-strict-times").addDeserializer(Instant.class, new TimeText()));
    }

    private static MutableCoercionConfig refuseText(MutableCoercionConfig config) {
        return config.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
    }

    /** Adds the version shown in the layout's footer to every page model. */
    @ControllerAdvice(annotations = org.springframework.stereotype.Controller.class)
    static class LayoutModel {

        @ModelAttribute("perflabVersion")
        String perflabVersion() {
            return PerfLabVersion.get();
        }
    }
}
