package io.perflab.history;

import io.perflab.system.ApiPage;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * {@code GET /api/v1/benchmarks} and {@code GET /api/v1/benchmarks/{name}/history}; names with a slash (Go
 * package paths) cannot travel in a path segment, so {@code GET /api/v1/benchmarks/history?benchmark=…} works
 * for every name.
 */
@RestController
// an Accept that takes no JSON is refused (406) before the handler runs
@RequestMapping(path = "/api/v1/benchmarks", produces = MediaType.APPLICATION_JSON_VALUE)
class HistoryApiController {

    private final HistoryService history;

    HistoryApiController(HistoryService history) {
        this.history = history;
    }

    /** A page of the benchmarks that have uploads, by name; {@code name} keeps those whose names contain it. */
    @Operation(summary = "List the benchmarks that have uploads, by name, a page at a time")
    @GetMapping
    ApiPage<BenchmarkSummary> benchmarks(@RequestParam(required = false) String name,
            @RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "50") int size) {
        ApiPage.check(page, size);
        return new ApiPage<>(history.benchmarks(name, page, size), page, size, history.countBenchmarks(name));
    }

    /**
     * One page of the benchmark's series of {@code metric}: page 0 its latest {@code size} uploads (at most
     * {@value ApiPage#MAX_SIZE}, and so by default), in commit order, with the change points within them.
     */
    @Operation(summary = "A benchmark's series of one metric across commits, with change points")
    @GetMapping("/{name}/history")
    History history(@PathVariable String name, @RequestParam(required = false) String metric,
            @RequestParam(required = false) String branch, @RequestParam(defaultValue = "0") int page,
            @RequestParam(defaultValue = "" + ApiPage.MAX_SIZE) int size) {
        ApiPage.check(page, size);
        return history.history(name, metric, branch, page, size,
                ServletUriComponentsBuilder.fromCurrentContextPath().toUriString());
    }

    @Operation(summary = "A benchmark's series of one metric across commits, with change points; any name, slashes too")
    @ApiResponse(responseCode = "200", description = "the page of the series")
    @ApiResponse(responseCode = "404", description = "no benchmark of that name has uploads")
    @GetMapping("/history")
    History historyByParameter(@RequestParam String benchmark, @RequestParam(required = false) String metric,
            @RequestParam(required = false) String branch, @RequestParam(defaultValue = "0") int page,
            @RequestParam(defaultValue = "" + ApiPage.MAX_SIZE) int size) {
        return history(benchmark, metric, branch, page, size);
    }
}
