package io.perflab.security;

import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

/** The sign-in form; Spring Security processes the POST. */
@Controller
class LoginController {

    static final String VIEW = "security/login";

    @GetMapping("/login")
    String loginForm() {
        return VIEW;
    }
}
