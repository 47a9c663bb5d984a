package dev.cryptopay.testsupport.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rules find what they are for, on fixture classes that break them. */
class ArchitectureRulesTest {

    private static final String FIXTURE = "dev.cryptopay.testsupport.architecture.fixture";

    private final JavaClasses fixtures = new ClassFileImporter().importPackages(FIXTURE);

    @Test
    void findsAPackageCycle() {
        List<String> details = ArchitectureRules.noPackageCycles(FIXTURE + ".cycle")
                .evaluate(fixtures)
                .getFailureReport()
                .getDetails();
        assertThat(String.join("\n", details)).contains("cycle.a").contains("cycle.b");
        assertThat(ArchitectureRules.noPackageCycles(FIXTURE + ".shop")
                        .evaluate(fixtures)
                        .hasViolation())
                .isFalse();
    }

    @Test
    void findsAServiceAnsweringAResponseDirectlyWrappedOrInsideItsOwnRecord() {
        String report = String.join(
                "\n",
                ArchitectureRules.servicesAnswerDomainResults(FIXTURE + ".shop")
                        .evaluate(fixtures)
                        .getFailureReport()
                        .getDetails());
        assertThat(report).contains("ShopService.find()").contains("ShopService.list()");
        assertThat(report).as("a domain result is fine").doesNotContain("ShopService.get()");
        assertThat(report).as("only public methods count").doesNotContain("internal()");
    }

    @Test
    void findsAPackageWithoutPackageInfo(@TempDir Path sources) throws IOException {
        Files.createDirectories(sources.resolve("dev/shop/orders"));
        Files.writeString(sources.resolve("dev/shop/Shop.java"), "package dev.shop;");
        Files.writeString(sources.resolve("dev/shop/package-info.java"), "package dev.shop;");
        Files.writeString(sources.resolve("dev/shop/orders/Order.java"), "package dev.shop.orders;");
        assertThat(ArchitectureRules.packagesWithoutPackageInfo(sources))
                .containsExactly("Package dev.shop.orders has no package-info.java");
    }

    @Test
    void listedBreachesMayOnlyShrink() {
        ArchitectureRules.verdict("root", List.of("Cycle a -> b"), List.of("a -> b"));
        assertThatThrownBy(() -> ArchitectureRules.verdict("root", List.of("Cycle a -> b"), List.of()))
                .hasMessageContaining("new breach: Cycle a -> b");
        assertThatThrownBy(() -> ArchitectureRules.verdict("root", List.of(), List.of("a -> b")))
                .hasMessageContaining("fixed, remove it from the list: a -> b");
    }
}
