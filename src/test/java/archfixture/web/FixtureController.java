package archfixture.web;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** A web controller for the fixture's command to misuse. */
@RestController
public class FixtureController {

    @GetMapping("/fixture")
    public String get() {
        return "fixture";
    }
}
