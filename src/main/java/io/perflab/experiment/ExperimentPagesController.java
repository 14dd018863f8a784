package io.perflab.experiment;

import io.perflab.paired.PairedInput;
import io.perflab.rpc.EngineOptions;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.system.ConflictException;
import io.perflab.system.FieldMessages;
import io.perflab.system.InvalidInputException;
import io.perflab.system.NotAllowedException;
import io.perflab.system.NotFoundException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.validation.Validator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.validation.BindingResult;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * The dashboard's experiment pages: home, list, detail, the new-experiment form and the actions.
 *
 * <p>Over 300 lines: the pages of one aggregate, whose models share their parts (rows, summaries, the form's hints).
 */
@Controller
class ExperimentPagesController {

    static final String VIEW_HOME = "home";
    static final String VIEW_LIST = "experiments/list";
    static final String VIEW_DETAIL = "experiments/detail";
    static final String VIEW_RESULTS_FRAGMENT = "experiments/detail :: results";
    static final String VIEW_FORM = "experiments/form";
    static final int PAGE_SIZE = 25;
    private static final ResultsDigest NO_RESULTS = new ResultsDigest(List.of(), 0, 0);

    /** Metrics per page of the results table; each is drawn in two plots, so this bounds the page's size. */
    static final int METRICS_PER_PAGE = 25;

    /** The headline metrics for the live view's script, which shows their values of each finished trial. */
    static final String HEADLINE_KEYS = String.join(" ", MetricKeys.HEADLINE);

    /** Failed runs listed on the page; the samples API has them all. */
    static final int FAILED_RUNS_SHOWN = 20;

    private final ExperimentService experiments;
    private final Validator validator;
    private final MdeHints mdeHints;
    private final ObjectProvider<BaseComparison.Source> bases;

    ExperimentPagesController(ExperimentService experiments, Validator validator, MdeHints mdeHints,
            ObjectProvider<BaseComparison.Source> bases) {
        this.experiments = experiments;
        this.validator = validator;
        this.mdeHints = mdeHints;
        this.bases = bases;
    }

    /** A list row: the experiment and what a list shows of its results. */
    record Row(ExperimentView experiment, ResultsDigest results) {
    }

    @GetMapping("/")
    String home(Model model) {
        model.addAttribute("running", experiments.running().orElse(null));
        model.addAttribute("queue", rows(experiments.list(new ExperimentFilter(ExperimentStatus.QUEUED, null, null,
                null, true), 0, 20), false));
        model.addAttribute("recent", rows(experiments.list(ExperimentFilter.ALL, 0, 10), true));
        List<Row> regressions = rows(experiments.list(new ExperimentFilter(null, null, ExperimentKind.UPLOAD, null,
                false), 0, 30), true).stream()
                .filter(r -> r.results().regressed() > 0)
                .limit(10)
                .toList();
        model.addAttribute("regressions", regressions);
        model.addAttribute("experimentCount", experiments.count(ExperimentFilter.ALL));
        model.addAttribute("headlineKeys", HEADLINE_KEYS);
        model.addAttribute("defaultPairs", PairedInput.DEFAULT_PAIRS);
        model.addAttribute("defaultRuns", ExperimentValidator.DEFAULT_RUNS);
        return VIEW_HOME;
    }

    /**
     * The experiments the filters select, {@value #PAGE_SIZE} to a page. A filter, sort or page number that names
     * nothing answers 400 and a page past the last 404, as the page that says so with the form to filter again:
     * scripts and crawlers see the error the reader does.
     */
    @GetMapping("/experiments")
    String list(@RequestParam(required = false) String status, @RequestParam(required = false) String kind,
            @RequestParam(required = false) String name, @RequestParam(required = false) String benchmark,
            @RequestParam(defaultValue = ExperimentListFilters.NEWEST_FIRST) String sort,
            @RequestParam(defaultValue = "0") String page, Model model, HttpServletResponse response) {
        ExperimentListFilters filters = ExperimentListFilters.of(status, kind, name, benchmark, sort, page);
        ExperimentFilter filter = filters.filter();
        int current = filters.page();
        // a filter that names nothing lists nothing: every experiment, under a menu on "any", looked filtered
        boolean listed = filters.unknown().isEmpty();
        long total = listed ? experiments.count(filter) : 0;
        long pages = Math.max(1, (total + PAGE_SIZE - 1) / PAGE_SIZE);
        boolean noSuchPage = listed && current >= pages;
        model.addAttribute("rows", listed && !noSuchPage ? rows(experiments.list(filter, current, PAGE_SIZE), true)
                : List.of());
        model.addAttribute("unknownFilters", filters.unknown());
        model.addAttribute("noSuchPage", noSuchPage);
        model.addAttribute("total", total);
        model.addAttribute("page", current);
        model.addAttribute("pages", pages);
        model.addAttribute("statuses", ExperimentStatus.values());
        model.addAttribute("kinds", ExperimentKind.values());
        model.addAttribute("filter", Map.of("status", status == null ? "" : status, "kind", kind == null ? "" : kind,
                "name", name == null ? "" : name, "benchmark", benchmark == null ? "" : benchmark, "sort", sort));
        if (!listed) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
        } else if (noSuchPage) {
            response.setStatus(HttpStatus.NOT_FOUND.value());
        }
        return VIEW_LIST;
    }

    /**
     * A one-sided upload has nothing to compare within itself: no badge rather than "inconclusive", unless it was
     * compared with a base when it came in, whose verdicts its row shows, marked as against that base.
     */
    private List<Row> rows(List<ExperimentRecord> records, boolean withVerdicts) {
        return experiments.summaries(records, withVerdicts).stream()
                .map(view -> new Row(view, withVerdicts ? view.summary() : NO_RESULTS))
                .toList();
    }

    /**
     * An experiment: what changed, then its results as a summary, the warnings said once, one page of the metrics
     * that {@code metric} and {@code verdict} select (a table and each metric's plots), and the failed runs.
     */
    @GetMapping("/experiments/{id}")
    String detail(@PathVariable long id, @RequestParam(required = false) String metric,
            @RequestParam(required = false) String verdict, @RequestParam(defaultValue = "0") int page,
            Authentication authentication, Model model) {
        ExperimentView view = experiments.view(id);
        // a visitor is asked to sign in; a user sees Resume and Re-run disabled, with the reason, if refused, and
        // none of Cancel, Resume and Re-run on someone else's experiment
        ExperimentCaller caller = authentication == null ? null : ExperimentCaller.of(authentication);
        boolean mayControl = caller != null && caller.controls(view.createdBy(), view.createdByToken());
        model.addAttribute("signedIn", caller != null);
        model.addAttribute("mayControl", mayControl);
        model.addAttribute("runAgainRefusal", mayControl ? experiments.runAgainRefusal(id, caller.admin())
                .orElse(null) : null);
        ResultsSummary summary = ResultsSummary.of(view.results());
        MetricPage metrics = MetricPage.of(view.results(), new MetricFilter(metric, verdict), page,
                METRICS_PER_PAGE);
        List<RunRecord> runs = ExperimentResults.asCompared(experiments.runs(id, metrics.keys(METRICS_PER_PAGE)));
        List<RunRecord> failed = runs.stream().filter(r -> !r.ok()).toList();
        model.addAttribute("experiment", view);
        model.addAttribute("summary", summary);
        model.addAttribute("metrics", metrics);
        model.addAttribute("rows", ResultCharts.rows(metrics, summary, runs, METRICS_PER_PAGE));
        model.addAttribute("forestPlot", ResultCharts.forest(metrics.metrics()));
        model.addAttribute("upload", experiments.uploadDetails(id));
        model.addAttribute("base", Optional.ofNullable(bases.getIfAvailable()).flatMap(source -> source.of(id))
                .orElse(null));
        model.addAttribute("failedRuns", failed.subList(0, Math.min(FAILED_RUNS_SHOWN, failed.size())));
        model.addAttribute("failedRunCount", failed.size());
        // a paired design counts its failures in pairs: one row a pair, where its runs are a record per variant
        List<FailedPair> failedPairs = view.paired() == null ? List.of() : experiments.failedPairs(id);
        model.addAttribute("failedPairs", failedPairs.subList(0, Math.min(FAILED_RUNS_SHOWN, failedPairs.size())));
        model.addAttribute("failedPairCount", failedPairs.size());
        model.addAttribute("environment", environment(runs));
        model.addAttribute("measurement", MethodNotes.measurement(view));
        model.addAttribute("noResults", MethodNotes.noResults(view));
        model.addAttribute("samplesNote", MethodNotes.SAMPLES);
        model.addAttribute("headlineKeys", HEADLINE_KEYS);
        return VIEW_DETAIL;
    }

    /** The results section alone, for the page's script to swap in when a running experiment finishes. */
    @GetMapping("/experiments/{id}/results")
    String resultsFragment(@PathVariable long id, Authentication authentication, Model model) {
        detail(id, null, null, 0, authentication, model);
        return VIEW_RESULTS_FRAGMENT;
    }

    /** The runs' environment ({@link RunEnvironment}): each entry as the reports describe it. */
    static Map<String, String> environment(List<RunRecord> runs) {
        Map<String, String> shown = new LinkedHashMap<>();
        RunEnvironment.of(runs).forEach((key, values) -> shown.put(key, RunEnvironment.describe(values)));
        return shown;
    }

    /**
     * Where an experiment page sends a visitor who wants to act on it: signing in is required here, and the
     * address kept across sign-in brings them back to the page.
     */
    @GetMapping("/experiments/{id}/sign-in")
    String signInToAct(@PathVariable long id) {
        return "redirect:/experiments/" + id;
    }

    @GetMapping("/experiments/new")
    String initCreationForm(@RequestParam(required = false) String preset, Model model,
            Authentication authentication) {
        ExperimentForm form = new ExperimentForm();
        if (preset != null && ExperimentPreset.find(preset).isPresent()) {
            form.setPreset(ExperimentPreset.find(preset).get().id());
            form.setName(ExperimentPreset.find(preset).get().explanation().replaceAll(" \\(seed.*", ""));
        }
        return showForm(form, model, authentication);
    }

    @PostMapping("/experiments/new")
    String processCreationForm(@ModelAttribute("form") ExperimentForm form, BindingResult binding,
            Authentication authentication, Model model, RedirectAttributes redirect, HttpServletRequest sent) {
        RepeatedFormFields.reject(sent.getParameterMap(), binding);
        ExperimentRequest request = form.toRequest(binding);
        validator.validate(request).forEach(v -> binding.rejectValue(ExperimentForm.path(v.getPropertyPath()
                .toString()), "invalid", FieldMessages.violation(v.getMessage(), v.getInvalidValue())));
        if (binding.hasErrors()) {
            return showForm(form, model, authentication);
        }
        try {
            long id = experiments.create(request, ExperimentCaller.of(authentication));
            redirect.addFlashAttribute("message", "Experiment queued.");
            return "redirect:/experiments/" + id;
        } catch (InvalidInputException invalid) {
            invalid.problems().forEach(p -> {
                if (p.field() == null || !ExperimentForm.FIELDS.contains(p.field().replaceAll("[.\\[].*", ""))) {
                    binding.reject("invalid", p.toString());
                } else {
                    binding.rejectValue(ExperimentForm.path(p.field()), "invalid", p.message());
                }
            });
            return showForm(form, model, authentication);
        } catch (NotAllowedException refused) {
            binding.reject("notAllowed", refused.getMessage());
            return showForm(form, model, authentication);
        }
    }

    private String showForm(ExperimentForm form, Model model, Authentication authentication) {
        model.addAttribute("form", form);
        model.addAttribute("commandFormats", experiments.commandFormats(authentication != null
                && ExperimentApiController.isAdmin(authentication)).orElse(null));
        model.addAttribute("presets", ExperimentPreset.values());
        model.addAttribute("options", EngineOptions.optionSpecs());
        model.addAttribute("workloadFields", ExperimentForm.WORKLOAD_FIELDS);
        model.addAttribute("mde", mdeHints.forForm(form));
        model.addAttribute("defaultPairs", PairedInput.DEFAULT_PAIRS);
        model.addAttribute("defaultRuns", ExperimentValidator.DEFAULT_RUNS);
        model.addAttribute("defaultCommandPairs", PairedInput.DEFAULT_COMMAND_PAIRS);
        model.addAttribute("defaultTargets", String.join(", ", PairedInput.DEFAULT_TARGETS));
        return VIEW_FORM;
    }

    @PostMapping("/experiments/{id}/cancel")
    String cancel(@PathVariable long id, Authentication authentication, RedirectAttributes redirect) {
        return act(id, redirect, () -> {
            experiments.cancel(id, ExperimentCaller.of(authentication));
            return "Cancel requested.";
        });
    }

    @PostMapping("/experiments/{id}/resume")
    String resume(@PathVariable long id, Authentication authentication, RedirectAttributes redirect) {
        return act(id, redirect, () -> switch (experiments.resume(id, ExperimentCaller.of(authentication))) {
            case QUEUED -> "Queued again; it runs only the missing runs.";
            case FAILED -> "No run was missing, but its last run had more failures than it allows, so it failed.";
            default -> "No run was missing: every one is stored, so it is completed.";
        });
    }

    @PostMapping("/experiments/{id}/rerun")
    String rerun(@PathVariable long id, Authentication authentication, RedirectAttributes redirect) {
        try {
            long copy = experiments.rerun(id, ExperimentCaller.of(authentication));
            redirect.addFlashAttribute("message", "Queued a re-run of experiment " + id + ".");
            return "redirect:/experiments/" + copy;
        } catch (ExperimentService.NotStarterException refused) {
            throw refused;
        } catch (ConflictException | NotFoundException | NotAllowedException | InvalidInputException refused) {
            redirect.addFlashAttribute("error", refused.getMessage());
            return "redirect:/experiments/" + id;
        }
    }

    /** An administrator's only ({@code SecurityConfig}), as {@code DELETE} on the API is. */
    @PostMapping("/experiments/{id}/delete")
    String delete(@PathVariable long id, RedirectAttributes redirect) {
        try {
            experiments.delete(id);
        } catch (ConflictException | NotFoundException problem) {
            redirect.addFlashAttribute("error", problem.getMessage());
            return "redirect:/experiments/" + id;
        }
        redirect.addFlashAttribute("message", "Experiment " + id + " deleted.");
        return "redirect:/experiments";
    }

    /**
     * Runs {@code action} on experiment {@code id} and goes back to its page, with the message the action returns,
     * or with why it was refused. Someone else's experiment, whose page shows this caller no button, answers 403, as
     * the page's Delete does for a user.
     */
    private static String act(long id, RedirectAttributes redirect, Supplier<String> action) {
        try {
            redirect.addFlashAttribute("message", action.get());
        } catch (ExperimentService.NotStarterException refused) {
            throw refused;
        } catch (ConflictException | NotFoundException | NotAllowedException | InvalidInputException problem) {
            redirect.addFlashAttribute("error", problem.getMessage());
        }
        return "redirect:/experiments/" + id;
    }
}
