package io.perflab.system;

import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/** The home page: what is stored and running right now, and what to do next when nothing is. */
@Controller
class HomeController {

    static final String VIEW = "home";

    private final JdbcClient jdbc;

    HomeController(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** A status and how many experiments have it. */
    record StatusCount(String status, long count) {
    }

    @GetMapping("/")
    String home(Model model) {
        List<StatusCount> counts = jdbc.sql("""
                SELECT status, COUNT(*) AS n FROM experiment GROUP BY status ORDER BY status""")
                .query((rs, i) -> new StatusCount(rs.getString("status"), rs.getLong("n")))
                .list();
        long total = counts.stream().mapToLong(StatusCount::count).sum();
        long samples = jdbc.sql("SELECT COUNT(*) FROM sample").query(Long.class).single();
        model.addAttribute("statusCounts", counts);
        model.addAttribute("experimentCount", total);
        model.addAttribute("sampleCount", samples);
        model.addAttribute("baseUrl", ServletUriComponentsBuilder.fromCurrentContextPath().toUriString());
        return VIEW;
    }
}
