package archfixture.cli;

import archfixture.FixtureApplication;
import archfixture.web.FixtureController;

/** Breaks two rules on purpose: a command that calls back into the root class and uses a web controller. */
public class FixtureCommand implements Runnable {

    @Override
    public void run() {
        FixtureApplication.serve();
        new FixtureController().get();
    }
}
