package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.validation.BeanPropertyBindingResult;

/** The host labels field of the new-experiment form: typed as {@code k=v,k=v}, refused beside the field. */
class ExperimentFormTests {

    @Test
    void hostLabelsTypedAsTextBecomeTheRequestsLabels() {
        ExperimentForm form = new ExperimentForm();
        form.setName("labelled");
        form.setHostLabels(" kernel=6.8, arch=x86_64 ");
        BeanPropertyBindingResult errors = new BeanPropertyBindingResult(form, "form");

        ExperimentRequest request = form.toRequest(errors);

        assertThat(errors.hasErrors()).isFalse();
        assertThat(request.hostLabels()).containsExactly(Map.entry("arch", "x86_64"), Map.entry("kernel", "6.8"));
    }

    @Test
    void noHostLabelsAskForNone() {
        ExperimentForm form = new ExperimentForm();
        form.setName("anywhere");
        BeanPropertyBindingResult errors = new BeanPropertyBindingResult(form, "form");

        assertThat(form.toRequest(errors).hostLabels()).isNull();
        assertThat(errors.hasErrors()).isFalse();
    }

    @Test
    void labelsThatAreNotLabelsAreRefusedOnTheirField() {
        ExperimentForm form = new ExperimentForm();
        form.setName("bad labels");
        form.setHostLabels("arch=x86_64,kernel");
        form.setKind("command");
        BeanPropertyBindingResult errors = new BeanPropertyBindingResult(form, "form");

        assertThat(form.toRequest(errors).hostLabels()).isNull();
        assertThat(errors.getFieldError("hostLabels")).isNotNull();
        assertThat(errors.getFieldError("hostLabels").getDefaultMessage())
                .isEqualTo("'kernel' is not a label; write key=value, several separated by commas "
                        + "(e.g. arch=x86_64,kernel=6.8)");
    }
}
