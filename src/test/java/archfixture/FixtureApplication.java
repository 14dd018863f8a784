package archfixture;

import archfixture.cli.FixtureCommand;

/** The fixture's root class: it starts the command line, which must not reach back to it. */
public class FixtureApplication {

    public static void main(String[] args) {
        new FixtureCommand().run();
    }

    public static void serve() {
    }
}
