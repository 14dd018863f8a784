package io.perflab.security;

import java.security.Principal;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** Settings → API tokens: list, create (the secret is shown once, on the page after creating) and revoke. */
@Controller
class TokensPageController {

    static final String VIEW = "settings/tokens";

    private final ApiTokens tokens;

    TokensPageController(ApiTokens tokens) {
        this.tokens = tokens;
    }

    @GetMapping("/settings/tokens")
    String showTokens(Model model) {
        model.addAttribute("tokens", tokens.list());
        return VIEW;
    }

    @PostMapping("/settings/tokens")
    String processCreationForm(@RequestParam(defaultValue = "") String name,
                               @RequestParam(defaultValue = "user") String role, Principal principal, Model model) {
        try {
            ApiTokens.CreatedToken created = tokens.create(name, role, principal.getName());
            model.addAttribute("created", created);
        } catch (IllegalArgumentException e) {
            model.addAttribute("error", e.getMessage());
            // shown again as typed, so that correcting the name does not turn an agent token into a user token
            model.addAttribute("name", name);
            model.addAttribute("role", role);
        }
        // rendered, not redirected: the secret must not travel in a URL or a flash attribute that outlives the page
        model.addAttribute("tokens", tokens.list());
        return VIEW;
    }

    @PostMapping("/settings/tokens/{id}/revoke")
    String processRevocation(@PathVariable long id, Principal principal, RedirectAttributes redirect) {
        if (tokens.revoke(id, principal.getName())) {
            redirect.addFlashAttribute("message", "Token " + id + " is revoked.");
        } else {
            redirect.addFlashAttribute("error", "There is no API token with id " + id + ".");
        }
        return "redirect:/settings/tokens";
    }
}
