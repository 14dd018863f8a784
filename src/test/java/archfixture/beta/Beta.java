package archfixture.beta;

import archfixture.alpha.Alpha;

/** The other half of a deliberate cycle between two feature packages. */
public class Beta {

    public Alpha partner() {
        return new Alpha();
    }
}
