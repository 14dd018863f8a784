package io.perflab.security;

import io.perflab.system.PageNumber;
import jakarta.servlet.http.HttpServletResponse;
import io.perflab.system.InvalidInputException;
import java.security.Principal;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * Settings → API tokens: list, {@value #PAGE_SIZE} to a page (revoked tokens are kept, so they only grow), create (the
 * secret is shown once, on the page after creating) and revoke.
 */
@Controller
class TokensPageController {

    static final String VIEW = "settings/tokens";
    static final int PAGE_SIZE = 50;

    private final ApiTokens tokens;

    TokensPageController(ApiTokens tokens) {
        this.tokens = tokens;
    }

    /** A page number that is none answers 400 and a page past the last 404, as the benchmarks list does. */
    @GetMapping("/settings/tokens")
    String showTokens(@RequestParam(defaultValue = "0") String page, Model model, HttpServletResponse response) {
        Integer number = PageNumber.parse(page);
        boolean listed = number != null && listPage(number, model);
        model.addAttribute("notAPage", number == null ? PageNumber.notOne(page) : null);
        if (!listed) {
            response.setStatus(number == null ? HttpStatus.BAD_REQUEST.value() : HttpStatus.NOT_FOUND.value());
        }
        return VIEW;
    }

    /** Page {@code page} of the tokens, newest first, into the model; false when there is no such page. */
    private boolean listPage(int page, Model model) {
        long total = tokens.count();
        long pages = Math.max(1, (total + PAGE_SIZE - 1) / PAGE_SIZE);
        boolean exists = page < pages;
        model.addAttribute("tokens", exists ? tokens.list(page, PAGE_SIZE) : List.of());
        model.addAttribute("noSuchPage", !exists);
        model.addAttribute("total", total);
        model.addAttribute("page", page);
        model.addAttribute("pages", pages);
        return exists;
    }

    @PostMapping("/settings/tokens")
    String processCreationForm(@RequestParam(defaultValue = "") String name,
                               @RequestParam(defaultValue = "user") String role, Principal principal, Model model) {
        try {
            ApiTokens.CreatedToken created = tokens.create(name, role, principal.getName());
            model.addAttribute("created", created);
        } catch (InvalidInputException e) {
            model.addAttribute("error", e.getMessage());
            // shown again as typed, so that correcting the name does not turn an agent token into a user token
            model.addAttribute("name", name);
            model.addAttribute("role", role);
        }
        // rendered, not redirected: the secret must not travel in a URL or a flash attribute that outlives the page
        listPage(0, model);
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
