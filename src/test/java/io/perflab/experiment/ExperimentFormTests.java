package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.runner.experiment.ExperimentDesign;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.validation.BeanPropertyBindingResult;

/**
 * The new-experiment form: host labels typed as {@code k=v,k=v}, refused beside the field; pairs and target left
 * blank ask for the service's default experiment.
 */
class ExperimentFormTests {

    @Test
    void blankPairsAndTargetAreTheDefaultExperimentAndTypedOnesAreSent() {
        ExperimentForm form = named("default");
        form.setPreset("sync-completion");
        BeanPropertyBindingResult errors = new BeanPropertyBindingResult(form, "form");

        ExperimentRequest request = form.toRequest(errors);
        ExperimentSpec spec = new ExperimentValidator(new CommandExperimentsPolicy(false), JvmFlagPolicies.of(false))
                .validate(request, false);

        assertThat(errors.hasErrors()).isFalse();
        assertThat(request.pairs()).isNull();
        assertThat(request.target()).isNull();
        assertThat(spec.plan().pairs()).isEqualTo(40);
        assertThat(spec.stopping().targetTexts()).containsExactly("user_cpu_us_per_req:mde=2%",
                "sys_cpu_us_per_req:mde=2%",
                "cpu_us_per_req:mde=2%", "ctx_switches_per_req:mde=2%");
        form.setPairs(12);
        assertThat(form.toRequest(errors).pairs()).isEqualTo(12);
    }

    /** The form offered 40 runs per variant while its design was alternating, which ignores them. */
    @Test
    void runsPerVariantStartBlankAndTheFreshDesignThenRunsItsDefault() {
        ExperimentForm form = named("fresh");
        form.setPreset("sync-completion");
        assertThat(form.getRunsPerVariant()).isNull();
        form.setDesign("fresh");
        BeanPropertyBindingResult errors = new BeanPropertyBindingResult(form, "form");

        ExperimentRequest request = form.toRequest(errors);
        ExperimentSpec spec = new ExperimentValidator(new CommandExperimentsPolicy(false), JvmFlagPolicies.of(false))
                .validate(request, false);

        assertThat(errors.hasErrors()).isFalse();
        assertThat(spec.plan().design()).isEqualTo(ExperimentDesign.FRESH);
        assertThat(spec.plan().runsPerVariant()).isEqualTo(ExperimentValidator.DEFAULT_RUNS);
    }

    @Test
    void hostLabelsTypedAsTextBecomeTheRequestsLabels() {
        ExperimentForm form = named("labelled");
        form.setHostLabels(" kernel=6.8, arch=x86_64 ");
        BeanPropertyBindingResult errors = new BeanPropertyBindingResult(form, "form");

        ExperimentRequest request = form.toRequest(errors);

        assertThat(errors.hasErrors()).isFalse();
        assertThat(request.hostLabels()).containsExactly(Map.entry("arch", "x86_64"), Map.entry("kernel", "6.8"));
    }

    @Test
    void noHostLabelsAskForNone() {
        ExperimentForm form = named("anywhere");
        BeanPropertyBindingResult errors = new BeanPropertyBindingResult(form, "form");

        assertThat(form.toRequest(errors).hostLabels()).isNull();
        assertThat(errors.hasErrors()).isFalse();
    }

    @Test
    void labelsThatAreNotLabelsAreRefusedOnTheirField() {
        ExperimentForm form = named("bad labels");
        form.setHostLabels("arch=x86_64,kernel");
        form.setKind("command");
        BeanPropertyBindingResult errors = new BeanPropertyBindingResult(form, "form");

        assertThat(form.toRequest(errors).hostLabels()).isNull();
        assertThat(errors.getFieldError("hostLabels")).isNotNull();
        assertThat(errors.getFieldError("hostLabels").getDefaultMessage())
                .isEqualTo("'kernel' is not a label; write key=value, several separated by commas "
                        + "(e.g. arch=x86_64,kernel=6.8)");
    }

    /** The form's page showed a refused line as it was typed, an escape or a right-to-left override included. */
    @Test
    void aLineThatIsNoAssignmentIsQuotedWithItsHiddenCharactersEscaped() {
        ExperimentForm form = named("hidden");
        form.setKind("command");
        form.setWithoutEnvironment("SCORE\u001B[2J\u202Eoops");
        BeanPropertyBindingResult errors = new BeanPropertyBindingResult(form, "form");

        assertThat(form.toRequest(errors).withoutEnvironment()).isNull();
        assertThat(errors.getFieldError("withoutEnvironment").getDefaultMessage())
                .isEqualTo("one NAME=value a line, got 'SCORE\\u001B[2J\\u202Eoops'");
    }

    @Test
    void aWorkloadValueThatIsNoNumberIsQuotedWithItsHiddenCharactersEscaped() {
        ExperimentForm form = named("hidden");
        form.setPreset("sync-completion");
        form.getWorkload().put("clientThreads", "4\u001B\u202E2");
        BeanPropertyBindingResult errors = new BeanPropertyBindingResult(form, "form");

        form.toRequest(errors);

        assertThat(errors.getFieldError("workload[clientThreads]").getDefaultMessage())
                .isEqualTo("must be a whole number, got '4\\u001B\\u202E2'");
    }

    private static ExperimentForm named(String name) {
        ExperimentForm form = new ExperimentForm();
        form.setName(name);
        return form;
    }
}
