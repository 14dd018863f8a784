package io.perflab.experiment;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/** The agents page: every registered agent with its status, labels, host, current experiment and last heartbeat. */
@Controller
class AgentsPageController {

    static final String VIEW_LIST = "agents/list";

    private final AgentCoordinator coordinator;

    AgentsPageController(AgentCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @GetMapping("/agents")
    String list(Model model) {
        model.addAttribute("agents", coordinator.list());
        model.addAttribute("heartbeatTimeout", coordinator.settings().heartbeatTimeout().toSeconds());
        return VIEW_LIST;
    }
}
