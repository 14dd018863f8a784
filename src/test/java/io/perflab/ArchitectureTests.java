package io.perflab;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;

/**
 * Architecture rules of the service module. Each rule is also run against a deliberately broken fixture
 * ({@code io.perflab.archfixture}, test sources only) to show that it can fail.
 */
class ArchitectureTests {

    private static final JavaClasses PRODUCTION = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.perflab");

    private static final JavaClasses FIXTURE = new ClassFileImporter().importPackages("io.perflab.archfixture");

    /** The statistics package is pure computation: no Spring, servlet, JDBC or JSON types. */
    static ArchRule statisticsIsPure(String statsPackage) {
        return noClasses().that().resideInAPackage(statsPackage)
                .should().dependOnClassesThat().resideInAnyPackage(
                        "org.springframework..", "jakarta.servlet..", "java.sql..", "javax.sql..",
                        "tools.jackson..", "com.fasterxml.jackson..", "io.perflab.rpc..", "io.perflab.runner..")
                .because("io.perflab.stats is pure Java on Commons Math (DESIGN: Statistics)");
    }

    /** Feature packages (experiment, upload, analysis, …) may use each other only without cycles. */
    static ArchRule featurePackagesAreFreeOfCycles(String root) {
        return slices().matching(root + ".(*)..").should().beFreeOfCycles().allowEmptyShould(true);
    }

    @Test
    void statisticsPackageUsesNoFrameworkOrStorage() {
        statisticsIsPure("io.perflab.stats..").allowEmptyShould(true).check(PRODUCTION);
    }

    @Test
    void featurePackagesHaveNoCycles() {
        featurePackagesAreFreeOfCycles("io.perflab").check(PRODUCTION);
    }

    @Test
    void statisticsRuleCatchesAFrameworkDependency() {
        EvaluationResult result = statisticsIsPure("io.perflab.archfixture.stats..").evaluate(FIXTURE);

        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().toString()).contains("org.springframework");
    }

    @Test
    void cycleRuleCatchesACycleBetweenFeatures() {
        EvaluationResult result = featurePackagesAreFreeOfCycles("io.perflab.archfixture").evaluate(FIXTURE);

        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().toString()).contains("alpha", "beta");
    }
}
