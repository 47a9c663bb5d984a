package dev.cryptopay.testsupport.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaParameterizedType;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The rules docs/architecture.md states for every service, checked on its compiled main classes and its sources:
 *
 * <ul>
 *   <li>no package cycles inside the service (each package is its own slice, the root package included);
 *   <li>services ({@code @Service} classes and classes named {@code *Service}) answer domain results: no public
 *       method returns a {@code *Response} record, nor a type of the service's own that carries one;
 *   <li>no service imports another service's code;
 *   <li>every main package has a {@code package-info.java}.
 * </ul>
 *
 * <p>A breach that remains is listed by the service's test, as a fragment of the violation's text, and the list can
 * only shrink: a listed breach that no longer occurs fails the check too, so a fixed breach leaves the list.
 */
public final class ArchitectureRules {

    /** The root package of every deployable service. */
    public static final List<String> SERVICE_ROOTS = List.of(
            "dev.cryptopay.gateway",
            "dev.cryptopay.paymentlinks",
            "dev.cryptopay.subscriptions",
            "dev.cryptopay.webhooks",
            "dev.cryptopay.chainwatcher");

    private ArchitectureRules() {}

    /**
     * Checks every rule for the service rooted at {@code rootPackage} whose main sources are under
     * {@code mainSources} (e.g. {@code Path.of("src/main/java")}, relative to the module when Maven runs the test).
     *
     * @param knownBreaches fragments of the violations still accepted; each must match at least one violation
     * @throws AssertionError naming every new violation and every listed breach that no longer occurs
     */
    public static void check(String rootPackage, Path mainSources, String... knownBreaches) {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(rootPackage);
        if (classes.isEmpty()) {
            throw new AssertionError("No classes of " + rootPackage + " found: is the root package right?");
        }
        List<String> violations = new ArrayList<>();
        for (ArchRule rule : List.of(
                noPackageCycles(rootPackage), servicesAnswerDomainResults(rootPackage), ownCodeOnly(rootPackage))) {
            violations.addAll(rule.evaluate(classes).getFailureReport().getDetails());
        }
        violations.addAll(packagesWithoutPackageInfo(mainSources));
        verdict(rootPackage, violations, List.of(knownBreaches));
    }

    /** Each package of the service is a slice, and no slices depend on each other in a circle. */
    public static ArchRule noPackageCycles(String rootPackage) {
        return SlicesRuleDefinition.slices()
                .assignedFrom(new PackageSlices(rootPackage))
                .should()
                .beFreeOfCycles();
    }

    /** No public method of a service answers a {@code *Response}, directly, in a type argument or in a field. */
    public static ArchRule servicesAnswerDomainResults(String rootPackage) {
        return classes()
                .that()
                .resideInAPackage(rootPackage + "..")
                .and()
                .areAnnotatedWith("org.springframework.stereotype.Service")
                .or()
                .haveSimpleNameEndingWith("Service")
                .should(new ReturnsNoResponse(rootPackage))
                .allowEmptyShould(true);
    }

    /** The service's classes use no class of another service. */
    public static ArchRule ownCodeOnly(String rootPackage) {
        String[] others = SERVICE_ROOTS.stream()
                .filter(root -> !root.equals(rootPackage))
                .map(root -> root + "..")
                .toArray(String[]::new);
        return noClasses()
                .that()
                .resideInAPackage(rootPackage + "..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(others);
    }

    /** Every folder under {@code mainSources} that holds Java sources has a {@code package-info.java}. */
    public static List<String> packagesWithoutPackageInfo(Path mainSources) {
        if (!Files.isDirectory(mainSources)) {
            throw new AssertionError("No main sources at " + mainSources.toAbsolutePath());
        }
        try (Stream<Path> tree = Files.walk(mainSources)) {
            return tree.filter(Files::isDirectory)
                    .filter(ArchitectureRules::holdsJava)
                    .filter(folder -> !Files.exists(folder.resolve("package-info.java")))
                    .map(folder -> "Package "
                            + mainSources.relativize(folder).toString().replace('/', '.')
                            + " has no package-info.java")
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean holdsJava(Path folder) {
        try (Stream<Path> files = Files.list(folder)) {
            return files.anyMatch(file -> file.getFileName().toString().endsWith(".java"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void verdict(String rootPackage, List<String> violations, List<String> knownBreaches) {
        List<String> unexpected = violations.stream()
                .filter(violation -> knownBreaches.stream().noneMatch(violation::contains))
                .toList();
        List<String> gone = knownBreaches.stream()
                .filter(breach -> violations.stream().noneMatch(violation -> violation.contains(breach)))
                .toList();
        if (unexpected.isEmpty() && gone.isEmpty()) {
            return;
        }
        StringBuilder report = new StringBuilder("Architecture rules of " + rootPackage + ":");
        unexpected.forEach(violation -> report.append("\n  new breach: ").append(violation));
        gone.forEach(
                breach -> report.append("\n  fixed, remove it from the list: ").append(breach));
        throw new AssertionError(report.toString());
    }

    /** One slice per package under the root, the root package itself included; other classes are ignored. */
    private record PackageSlices(String rootPackage) implements SliceAssignment {

        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String name = javaClass.getPackageName();
            if (name.equals(rootPackage) || name.startsWith(rootPackage + ".")) {
                return SliceIdentifier.of(name);
            }
            return SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "packages of " + rootPackage;
        }
    }

    /** A class none of whose public methods answers a response record, however deeply it is wrapped. */
    private static final class ReturnsNoResponse extends ArchCondition<JavaClass> {

        private final String rootPackage;

        ReturnsNoResponse(String rootPackage) {
            super("answer domain results, never a *Response");
            this.rootPackage = rootPackage;
        }

        @Override
        public void check(JavaClass service, ConditionEvents events) {
            for (JavaMethod method : service.getMethods()) {
                if (!method.getModifiers().contains(JavaModifier.PUBLIC)) {
                    continue;
                }
                String found = response(method.getReturnType(), new HashSet<>());
                if (found != null) {
                    events.add(SimpleConditionEvent.violated(method, method.getFullName() + " answers " + found));
                }
            }
        }

        /** The first response type in {@code type}, its type arguments or (for the service's own types) fields. */
        private String response(JavaType type, Set<String> seen) {
            JavaClass raw = type.toErasure();
            if (raw.getSimpleName().endsWith("Response")) {
                return raw.getName();
            }
            if (type instanceof JavaParameterizedType parameterized) {
                for (JavaType argument : parameterized.getActualTypeArguments()) {
                    String found = response(argument, seen);
                    if (found != null) {
                        return found;
                    }
                }
            }
            if (raw.getPackageName().startsWith(rootPackage) && seen.add(raw.getName())) {
                for (JavaField field : raw.getFields()) {
                    if (field.getModifiers().contains(JavaModifier.STATIC)) {
                        continue;
                    }
                    String found = response(field.getType(), seen);
                    if (found != null) {
                        return raw.getName() + "." + field.getName() + ": " + found;
                    }
                }
            }
            return null;
        }
    }
}
