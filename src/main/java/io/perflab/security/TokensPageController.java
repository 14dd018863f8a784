package io.perflab.security;

import io.perflab.system.PageNumber;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.security.Principal;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseCookie;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.CookieValue;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * Settings → API tokens: list, {@value #PAGE_SIZE} to a page (revoked tokens are kept, so they only grow), create (the
 * secret is shown once, on the page the creation redirects to) and revoke.
 */
@Controller
class TokensPageController {

    static final String VIEW = "settings/tokens";
    static final int PAGE_SIZE = 50;

    /**
     * The cookie that carries a new token's secret from its creation to the page that shows it, once. Not a flash
     * attribute: sessions live in the database, where only a hash of a token may be stored.
     */
    static final String SECRET_COOKIE = "perflab-new-token";

    /** A token just created, as the page shows it once. */
    record NewToken(String name, String secret) {
    }

    private final ApiTokens tokens;

    TokensPageController(ApiTokens tokens) {
        this.tokens = tokens;
    }

    /**
     * A page number that is none answers 400 and a page past the last 404, as the benchmarks list does. Right after
     * a creation, the new token's secret is shown and its cookie deleted, so that a reload shows it no more.
     */
    @GetMapping("/settings/tokens")
    String showTokens(@RequestParam(defaultValue = "0") String page,
                      @CookieValue(name = SECRET_COOKIE, required = false) String secret, Model model,
                      HttpServletRequest request, HttpServletResponse response) {
        if (secret != null) {
            response.addHeader(HttpHeaders.SET_COOKIE, secretCookie(request, "").maxAge(0).build().toString());
            if (model.getAttribute("createdName") instanceof String name) {
                model.addAttribute("created", new NewToken(name, secret));
            }
        }
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

    /**
     * A created token redirects to the list (post/redirect/get, so that reloading the page does not create another),
     * which shows its secret once. The secret goes to the browser in {@link #SECRET_COOKIE} (HTTP-only, strict
     * same-site, for this page's path, ending with the browser session), never in a URL or the session store; the
     * token's name in a flash attribute, so that only the redirect that follows shows it. A refused name is shown
     * again beside the form, as typed.
     */
    @PostMapping("/settings/tokens")
    String processCreationForm(@RequestParam(defaultValue = "") String name,
                               @RequestParam(defaultValue = "user") String role, Principal principal, Model model,
                               RedirectAttributes redirect, HttpServletRequest request, HttpServletResponse response) {
        try {
            ApiTokens.CreatedToken created = tokens.create(name, role, principal.getName());
            response.addHeader(HttpHeaders.SET_COOKIE, secretCookie(request, created.secret()).build().toString());
            redirect.addFlashAttribute("createdName", created.token().name());
            return "redirect:/settings/tokens";
        } catch (IllegalArgumentException e) {
            model.addAttribute("error", e.getMessage());
            // shown again as typed, so that correcting the name does not turn an agent token into a user token
            model.addAttribute("name", name);
            model.addAttribute("role", role);
            listPage(0, model);
            return VIEW;
        }
    }

    private static ResponseCookie.ResponseCookieBuilder secretCookie(HttpServletRequest request, String value) {
        return ResponseCookie.from(SECRET_COOKIE, value).httpOnly(true).secure(request.isSecure())
                .sameSite("Strict").path(request.getContextPath() + "/settings/tokens");
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
