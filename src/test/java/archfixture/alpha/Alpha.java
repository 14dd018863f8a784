package archfixture.alpha;

import archfixture.beta.Beta;

/** Half of a deliberate cycle between two feature packages. */
public class Alpha {

    public Beta partner() {
        return new Beta();
    }
}
