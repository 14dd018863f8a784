package io.perflab.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import org.springframework.security.authentication.LockedException;
import org.springframework.security.web.WebAttributes;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/** The sign-in form; Spring Security processes the POST. */
@Controller
class LoginController {

    static final String VIEW = "security/login";

    /** Shows why the last attempt failed: wrong credentials, or too many failures (with how long to wait). */
    @GetMapping("/login")
    String loginForm(HttpServletRequest request, Model model) {
        HttpSession session = request.getSession(false);
        Object failure = session == null ? null : session.getAttribute(WebAttributes.AUTHENTICATION_EXCEPTION);
        model.addAttribute("locked", failure instanceof LockedException locked ? locked.getMessage() : null);
        return VIEW;
    }
}
