package io.perflab.experiment;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Who may act as an agent, checked before a request's body is read: a token that did not register agent N is told
 * 403 whatever it posts to {@code /api/v1/agents/N/…}, and learns nothing from how its body is refused (a malformed
 * body answered 400 before the owner was checked). {@link AgentCoordinator} checks again as it acts.
 */
@Configuration
class AgentOwnership implements WebMvcConfigurer, HandlerInterceptor {

    /** Absent in a test of the web layer alone, which has no agents. */
    private final ObjectProvider<AgentCoordinator> coordinator;

    AgentOwnership(ObjectProvider<AgentCoordinator> coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this).addPathPatterns("/api/v1/agents/*/**");
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        Authentication caller = SecurityContextHolder.getContext().getAuthentication();
        AgentCoordinator agents = coordinator.getIfAvailable();
        if (!"POST".equals(request.getMethod()) || caller == null || agents == null
                || !(request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE) instanceof Map<?, ?> vars)
                || !(vars.get("id") instanceof String id) || !id.matches("\\d{1,18}")) {
            return true;
        }
        agents.owned(Long.parseLong(id), AgentApiController.caller(caller));
        return true;
    }
}
