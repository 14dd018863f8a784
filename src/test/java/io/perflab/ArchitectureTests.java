package io.perflab;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.stereotype.Controller;
import org.springframework.stereotype.Repository;
import org.springframework.stereotype.Service;
import org.springframework.web.bind.annotation.ControllerAdvice;

/**
 * Architecture rules of the service module, over every class under {@code io.perflab} including the root package.
 * Each rule is also run against a deliberately broken fixture ({@code archfixture}, test sources only)
 * to show that it can fail.
 */
class ArchitectureTests {

    private static final JavaClasses PRODUCTION = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.perflab");

    private static final JavaClasses FIXTURE = new ClassFileImporter().importPackages("archfixture");

    /** The main sources of the three modules, relative to the repository's top folder. */
    private static final List<String> MAIN_SOURCES =
            List.of("rpc-engine/src/main/java", "benchmarks-runner/src/main/java", "src/main/java");

    /** The test sources of the three modules, relative to the repository's top folder. */
    private static final List<String> TEST_SOURCES =
            List.of("rpc-engine/src/test/java", "benchmarks-runner/src/test/java", "src/test/java");

    private static final int MAX_LINE_LENGTH = 120;

    private static final String[] WEB = {"org.springframework.web..", "org.springframework.http..",
            "jakarta.servlet..", "org.springframework.ui.."};

    /** The server side of the web stack; an HTTP client ({@code RestClient}) is not part of it. */
    private static final String[] WEB_SERVER = {"org.springframework.web.servlet..", "org.springframework.web.bind..",
            "org.springframework.web.context..", "org.springframework.web.method..",
            "org.springframework.web.multipart..", "org.springframework.web.filter..", "jakarta.servlet..",
            "org.springframework.ui.."};

    /** The statistics package is pure computation: no Spring, servlet, JDBC or JSON types. */
    static ArchRule statisticsIsPure(String statsPackage) {
        return noClasses().that().resideInAPackage(statsPackage)
                .should().dependOnClassesThat().resideInAnyPackage(
                        "org.springframework..", "jakarta.servlet..", "java.sql..", "javax.sql..",
                        "tools.jackson..", "com.fasterxml.jackson..", "io.perflab.rpc..", "io.perflab.runner..")
                .because("io.perflab.stats is pure Java on Commons Math (DESIGN: Statistics)");
    }

    /**
     * The root package (the application class) and the feature packages (experiment, upload, analysis, cli, …)
     * use each other only without cycles: the application starts the command line and the service, nothing
     * reaches back.
     */
    static ArchRule packagesAreFreeOfCycles(String root) {
        return slices().assignedFrom(new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                String name = javaClass.getPackageName();
                if (name.equals(root)) {
                    return SliceIdentifier.of("(root package)");
                }
                if (name.startsWith(root + ".")) {
                    return SliceIdentifier.of(name.substring(root.length() + 1).split("\\.")[0]);
                }
                return SliceIdentifier.ignore();
            }

            @Override
            public String getDescription() {
                return "the packages under " + root + " and the root package itself";
            }
        }).should().beFreeOfCycles().allowEmptyShould(true);
    }

    /** Services, repositories and validators speak the domain's terms; HTTP is the controllers' business. */
    static ArchRule servicesAreFreeOfHttp(String root) {
        return noClasses().that().resideInAPackage(root + "..")
                .and().areAnnotatedWith(Service.class).or().areAnnotatedWith(Repository.class)
                .or().haveSimpleNameEndingWith("Validator").or().haveSimpleNameEndingWith("Scheduler")
                .should().dependOnClassesThat().resideInAnyPackage(WEB)
                .orShould().dependOnClassesThat().haveSimpleName("ApiProblem")
                .because("services throw InvalidInputException, NotFoundException, ConflictException or "
                        + "NotAllowedException; controllers and the exception handlers turn them into HTTP");
    }

    /** The command line runs without the web service: no controller, no servlet or web-server type. */
    static ArchRule commandLineIsFreeOfWeb(String root) {
        return noClasses().that().resideInAPackage(root + ".cli..")
                .should().dependOnClassesThat().resideInAnyPackage(WEB_SERVER)
                .orShould().dependOnClassesThat(webComponent())
                .because("perflab's subcommands start no Spring context (DESIGN: One jar, several faces)");
    }

    /** SQL lives in repositories only. */
    static ArchRule sqlOnlyInRepositories(String root) {
        return classes().that().resideInAPackage(root + "..")
                .and().areNotAnnotatedWith(Repository.class)
                .and().resideOutsideOfPackage("db.migration..")
                .should().onlyDependOnClassesThat(DescribedPredicate.not(sqlType()))
                .because("one repository per aggregate owns its tables (experiments, uploads, tokens, history)");
    }

    /**
     * Text from outside (a request, a form, a flag, an uploaded line, a trial's frame) is cut with {@code strip()},
     * never {@code trim()}: {@code trim()} drops every character up to U+0020, so an escape code at either end of a
     * name vanished without a word (an upload's {@code ?benchmark=%1B[2Jcsv} was stored as "[2Jcsv") instead of
     * reaching the check that refuses it. A method reference ({@code String::trim}) is an access as a call is, so
     * the rule sees both.
     */
    static ArchRule inputIsStrippedNotTrimmed(String root) {
        return noClasses().that().resideInAPackage(root + "..")
                .should().accessTargetWhere(DescribedPredicate.describe("String.trim()", access ->
                        access.getTargetOwner().isEquivalentTo(String.class) && access.getName().equals("trim")))
                .because("trim() drops control characters at the ends unseen; strip() drops white space only, so "
                        + "a control character is refused with its position");
    }

    private static DescribedPredicate<JavaClass> webComponent() {
        return DescribedPredicate.describe("web controllers or controller advice", c ->
                c.isAnnotatedWith(Controller.class) || c.isAnnotatedWith(ControllerAdvice.class)
                        || c.isMetaAnnotatedWith(Controller.class) || c.isMetaAnnotatedWith(ControllerAdvice.class));
    }

    private static DescribedPredicate<JavaClass> sqlType() {
        return DescribedPredicate.describe("JDBC types", c -> c.getPackageName().startsWith("java.sql")
                || c.getPackageName().startsWith("org.springframework.jdbc"));
    }

    @Test
    void statisticsPackageUsesNoFrameworkOrStorage() {
        statisticsIsPure("io.perflab.stats..").allowEmptyShould(true).check(PRODUCTION);
    }

    @Test
    void packagesHaveNoCyclesRootIncluded() {
        packagesAreFreeOfCycles("io.perflab").check(PRODUCTION);
    }

    @Test
    void servicesUseNoHttpTypes() {
        servicesAreFreeOfHttp("io.perflab").check(PRODUCTION);
    }

    @Test
    void commandLineUsesNoWebClasses() {
        commandLineIsFreeOfWeb("io.perflab").check(PRODUCTION);
    }

    @Test
    void onlyRepositoriesRunSql() {
        sqlOnlyInRepositories("io.perflab").check(PRODUCTION);
    }

    @Test
    void inputIsStrippedNotTrimmed() {
        inputIsStrippedNotTrimmed("io.perflab").check(PRODUCTION);
    }

    @Test
    void inputRuleCatchesATrim() {
        assertViolated(inputIsStrippedNotTrimmed("archfixture"), "FixtureInput.name(java.lang.String)",
                "FixtureInput.names(java.util.List)", "String.trim()");
    }

    @Test
    void statisticsRuleCatchesAFrameworkDependency() {
        assertViolated(statisticsIsPure("archfixture.stats.."), "org.springframework");
    }

    @Test
    void cycleRuleCatchesCyclesBetweenFeaturesAndWithTheRoot() {
        assertViolated(packagesAreFreeOfCycles("archfixture"), "alpha", "beta", "(root package)");
    }

    @Test
    void httpRuleCatchesAServiceThatThrowsAnHttpError() {
        assertViolated(servicesAreFreeOfHttp("archfixture"), "FixtureService", "ResponseStatusException");
    }

    @Test
    void webRuleCatchesACommandThatUsesAController() {
        assertViolated(commandLineIsFreeOfWeb("archfixture"), "FixtureCommand", "FixtureController");
    }

    @Test
    void sqlRuleCatchesAServiceThatRunsSql() {
        assertViolated(sqlOnlyInRepositories("archfixture"), "FixtureService", "JdbcClient");
    }

    /** A main class over 300 lines says why in its Javadoc: "Over 300 lines because …" or "Over 300 lines: …". */
    @Test
    void everyLongMainClassSaysWhyItIsLong() throws IOException {
        List<String> unexplained = new ArrayList<>();
        for (String folder : MAIN_SOURCES) {
            Path sources = Path.of(folder);
            assertThat(sources).as("run from the repository's top folder").isDirectory();
            try (Stream<Path> files = Files.walk(sources)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    List<String> lines = Files.readAllLines(file);
                    boolean explained = lines.stream().anyMatch(l -> l.matches("\\s*\\*.*Over 300 lines[ :].*"));
                    if (lines.size() > 300 && !explained) {
                        unexplained.add(file + " (" + lines.size() + " lines)");
                    }
                }
            }
        }
        assertThat(unexplained).isEmpty();
    }

    /**
     * Main and test source lines are at most 120 characters long, counted in characters (code points), not bytes: a
     * line of −, × or µ is as long as it looks.
     */
    @Test
    void sourceLinesAreAtMost120Characters() throws IOException {
        List<Path> folders = new ArrayList<>();
        for (String folder : Stream.concat(MAIN_SOURCES.stream(), TEST_SOURCES.stream()).toList()) {
            Path sources = Path.of(folder);
            assertThat(sources).as("run from the repository's top folder").isDirectory();
            folders.add(sources);
        }
        List<String> longLines = linesOver(MAX_LINE_LENGTH, folders);

        assertThat(longLines)
                .withFailMessage("lines over %d characters (file:line:length):%n%s", MAX_LINE_LENGTH,
                        String.join(System.lineSeparator(), longLines))
                .isEmpty();
    }

    @Test
    void lineLengthRuleCountsCharactersNotBytes(@TempDir Path folder) throws IOException {
        Path file = folder.resolve("Fixture.java");
        Files.writeString(file, "µ".repeat(MAX_LINE_LENGTH) + "\n" + "−".repeat(MAX_LINE_LENGTH + 1) + "\n"
                + "x".repeat(MAX_LINE_LENGTH) + "\n");

        assertThat(linesOver(MAX_LINE_LENGTH, List.of(folder))).containsExactly(file + ":2:121");
    }

    /** Each line of the {@code .java} files under {@code folders} over {@code max} characters, as file:line:length. */
    private static List<String> linesOver(int max, List<Path> folders) throws IOException {
        List<String> offenders = new ArrayList<>();
        for (Path folder : folders) {
            try (Stream<Path> files = Files.walk(folder)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                    List<String> lines = Files.readAllLines(file);
                    for (int i = 0; i < lines.size(); i++) {
                        String line = lines.get(i);
                        int length = line.codePointCount(0, line.length());
                        if (length > max) {
                            offenders.add(file + ":" + (i + 1) + ":" + length);
                        }
                    }
                }
            }
        }
        return offenders;
    }

    private static void assertViolated(ArchRule rule, String... fragments) {
        EvaluationResult result = rule.evaluate(FIXTURE);

        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().toString()).contains(fragments);
    }
}
