package io.perflab.archfixture.cli;

import io.perflab.archfixture.FixtureApplication;
import io.perflab.archfixture.web.FixtureController;

/** Breaks two rules on purpose: a command that calls back into the root class and uses a web controller. */
public class FixtureCommand implements Runnable {

    @Override
    public void run() {
        FixtureApplication.serve();
        new FixtureController().get();
    }
}
