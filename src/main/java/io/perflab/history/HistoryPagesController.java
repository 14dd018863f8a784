package io.perflab.history;

import io.perflab.experiment.ExperimentService;
import io.perflab.system.ApiPage;
import io.perflab.system.InvalidInputException;
import io.perflab.system.NotFoundException;
import io.perflab.system.PageNumber;
import io.perflab.system.Texts;
import io.perflab.display.ScriptJson;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;
import tools.jackson.databind.json.JsonMapper;

/** The benchmark pages: every uploaded benchmark, and one benchmark's metric over commits with change points. */
@Controller
class HistoryPagesController {

    static final String VIEW_LIST = "benchmarks/list";
    static final String VIEW_HISTORY = "benchmarks/history";
    static final int PAGE_SIZE = 50;

    private final HistoryService history;
    private final ExperimentService experiments;
    private final JsonMapper json;

    HistoryPagesController(HistoryService history, ExperimentService experiments, JsonMapper json) {
        this.history = history;
        this.experiments = experiments;
        this.json = json;
    }

    /** The history of the benchmark that experiment {@code experiment} belongs to: any stored name opens so. */
    @GetMapping(path = "/benchmarks", params = "experiment")
    String historyOfExperiment(@RequestParam long experiment, @RequestParam(required = false) String metric,
            @RequestParam(required = false) String branch, @RequestParam(required = false) String page,
            @RequestParam(required = false) String size, Model model, HttpServletRequest request) {
        String name = experiments.get(experiment).benchmark();
        if (name == null) {
            throw new NotFoundException("experiment " + experiment + " is not an upload of a benchmark");
        }
        // the filters come back here, by the experiment: a name that cannot travel in a path opens only so
        model.addAttribute("byExperiment", experiment);
        return show(name, metric, branch, page, size, model, request);
    }

    /**
     * The benchmarks with uploads, {@value #PAGE_SIZE} to a page, those whose names contain {@code name}. A page
     * number that is none answers 400 and a page past the last 404, as the experiments list does, with the form.
     */
    @GetMapping("/benchmarks")
    String list(@RequestParam(required = false) String name, @RequestParam(defaultValue = "0") String page,
            Model model, HttpServletResponse response) {
        Integer number = PageNumber.parse(page);
        int current = number == null ? 0 : number;
        long total = history.countBenchmarks(name);
        long pages = Math.max(1, (total + PAGE_SIZE - 1) / PAGE_SIZE);
        boolean noSuchPage = number != null && current >= pages;
        model.addAttribute("benchmarks", number == null || noSuchPage ? List.of()
                : history.benchmarks(name, current, PAGE_SIZE));
        model.addAttribute("notAPage", number == null ? PageNumber.notOne(page) : null);
        model.addAttribute("noSuchPage", noSuchPage);
        model.addAttribute("total", total);
        model.addAttribute("page", current);
        model.addAttribute("pages", pages);
        model.addAttribute("name", name == null ? "" : name);
        if (number == null) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
        } else if (noSuchPage) {
            response.setStatus(HttpStatus.NOT_FOUND.value());
        }
        return VIEW_LIST;
    }

    /** {@code /benchmarks/{name}}, where the name may hold slashes (Go package paths). */
    @GetMapping("/benchmarks/{*path}")
    String history(@PathVariable String path, @RequestParam(required = false) String metric,
            @RequestParam(required = false) String branch, @RequestParam(required = false) String page,
            @RequestParam(required = false) String size, Model model, HttpServletRequest request) {
        return show(path.startsWith("/") ? path.substring(1) : path, metric, branch, page, size, model, request);
    }

    /**
     * A page of the series, {@code size} uploads (by default and at most {@value ApiPage#MAX_SIZE}), page 0 the
     * latest, as the API pages it; a page or size that is none answers 400 and a page past the last 404.
     */
    private String show(String name, String metric, String branch, String page, String size, Model model,
            HttpServletRequest request) {
        Integer number = PageNumber.parse(page);
        if (number == null) {
            throw InvalidInputException.of("page", PageNumber.notOne(page));
        }
        Integer uploads = size == null || size.isBlank() ? Integer.valueOf(ApiPage.MAX_SIZE) : PageNumber.parse(size);
        if (uploads == null || uploads < 1 || uploads > ApiPage.MAX_SIZE) {
            throw InvalidInputException.of("size", "A page of a history holds from 1 to " + ApiPage.MAX_SIZE
                    + " uploads; the address asked for '" + Texts.cut(size, 40) + "'.");
        }
        History h = history.history(name, metric, branch, number, uploads,
                ServletUriComponentsBuilder.fromCurrentContextPath().toUriString());
        model.addAttribute("history", h);
        model.addAttribute("earlier", h.page() + 1 < h.pages() ? pageAddress(request, h.page() + 1) : null);
        model.addAttribute("later", h.page() > 0 ? pageAddress(request, h.page() - 1) : null);
        model.addAttribute("branches", history.branches(name));
        model.addAttribute("chartData", chartJson(h));
        return VIEW_HISTORY;
    }

    /** This page's address, as the request wrote it, with {@code page} in place of its page. */
    private static String pageAddress(HttpServletRequest request, long page) {
        StringBuilder address = new StringBuilder(request.getRequestURI()).append('?');
        String query = request.getQueryString();
        for (String parameter : query == null ? new String[0] : query.split("&")) {
            if (!parameter.isEmpty() && !parameter.equals("page") && !parameter.startsWith("page=")) {
                address.append(parameter).append('&');
            }
        }
        return address.append("page=").append(page).toString();
    }

    private String chartJson(History h) {
        List<Map<String, Object>> points = new ArrayList<>();
        for (int i = 0; i < h.points().size(); i++) {
            HistoryPoint p = h.points().get(i);
            Map<String, Object> point = new LinkedHashMap<>();
            point.put("index", h.from() + i);
            point.put("commit", p.commit());
            point.put("mean", p.mean());
            point.put("ciLow", p.ciLow());
            point.put("ciHigh", p.ciHigh());
            point.put("n", p.n());
            point.put("experimentId", p.experimentId());
            point.put("convertedFrom", p.convertedFrom());
            points.add(point);
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("metric", h.metric());
        data.put("unit", h.unit());
        data.put("points", points);
        data.put("changePoints", h.changePoints().stream().map(HistoryChangePoint::index).toList());
        return ScriptJson.write(json, data);
    }
}
