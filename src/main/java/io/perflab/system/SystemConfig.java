package io.perflab.system;

import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;

/** Cross-cutting beans: the clock (tests replace it) and what every page's layout needs. */
@Configuration(proxyBeanMethods = false)
class SystemConfig {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
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
