package io.perflab.system;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The OpenAPI document at {@code /v3/api-docs}: titled and versioned as PerfLab, with the bearer-token scheme
 * that uploads and writes need (and reads, where {@code perflab.security.anonymous-reads} is false). Every operation
 * answers a typed record, so the document has a schema for each response that a client can be generated from; its
 * errors are problems ({@link ApiErrorDocumentation}), and its fields say whether they may be null
 * ({@link NullableFields}).
 */
@Configuration(proxyBeanMethods = false)
class ApiDocumentation {

    static final String BEARER = "bearer-token";

    static {
        // an event stream's handler returns its emitter, which is no body: without this the document held the
        // emitter's fields as a schema of their own
        SpringDocUtils.getConfig().replaceWithClass(SseEmitter.class, String.class);
    }

    @Bean
    OpenAPI perflabApi(PerfLabProperties properties) {
        return new OpenAPI()
                .info(new Info().title("PerfLab API").version(PerfLabVersion.get())
                        .description("Statistical A/B performance analysis: queue engine experiments, upload CI "
                                + "benchmark samples, compare two sets of numbers, follow histories. Errors are "
                                + "application/problem+json whose detail names the field at fault.")
                        .license(new License().name("PerfLab")))
                .schemaRequirement(BEARER, new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")
                        .description("An API token (Settings → API tokens) or the bootstrap token; "
                                + (properties.security().anonymousReads() ? "GETs and the analysis need none"
                                        : "every operation needs one (or a signed-in session), GETs too")))
                .addSecurityItem(new SecurityRequirement().addList(BEARER));
    }

    /** A 204 has no body, though its handler answers another status with one (an agent's poll that found none). */
    @Bean
    OpenApiCustomizer noContentHasNoBody() {
        return api -> api.getPaths().values().forEach(path -> path.readOperations().forEach(operation -> {
            ApiResponse none = operation.getResponses().get("204");
            if (none != null) {
                none.setContent(null);
            }
        }));
    }
}
