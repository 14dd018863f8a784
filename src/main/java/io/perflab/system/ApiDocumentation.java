package io.perflab.system;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI document at {@code /v3/api-docs}: titled and versioned as PerfLab, with the bearer-token scheme
 * that uploads and writes need. Every operation answers a typed record, so the document has a schema for each
 * response that a client can be generated from.
 */
@Configuration(proxyBeanMethods = false)
class ApiDocumentation {

    static final String BEARER = "bearer-token";

    @Bean
    OpenAPI perflabApi() {
        return new OpenAPI()
                .info(new Info().title("PerfLab API").version(PerfLabVersion.get())
                        .description("Statistical A/B performance analysis: queue engine experiments, upload CI "
                                + "benchmark samples, compare two sets of numbers, follow histories. Errors are "
                                + "application/problem+json whose detail names the field at fault.")
                        .license(new License().name("PerfLab")))
                .schemaRequirement(BEARER, new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")
                        .description("An API token (Settings → API tokens) or the bootstrap token; GETs need none"))
                .addSecurityItem(new SecurityRequirement().addList(BEARER));
    }
}
