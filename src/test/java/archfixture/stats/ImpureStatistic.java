package archfixture.stats;

import org.springframework.stereotype.Component;

/** Breaks the purity rule on purpose: a statistics class that is a Spring component. */
@Component
public class ImpureStatistic {

    public double mean(double[] values) {
        return org.springframework.util.ObjectUtils.isEmpty(values) ? 0 : values[0];
    }
}
