package dev.cryptopay.deploychecks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** deploy/docker/&lt;service&gt;.Dockerfile: the right jar, layered, non-root, the service's ports. */
class DockerfilesTest {

    static final List<String> SERVICES = Repo.SERVICES;

    /** Instructions of a Dockerfile (continuation lines joined, comments dropped). */
    static List<String> instructions(String service) {
        String text = Repo.read("deploy/docker/" + service + ".Dockerfile");
        List<String> instructions = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.lines().toList()) {
            String trimmed = line.trim();
            if (trimmed.startsWith("#") || trimmed.isEmpty()) {
                continue;
            }
            if (trimmed.endsWith("\\")) {
                current.append(trimmed, 0, trimmed.length() - 1).append(' ');
            } else {
                instructions.add(current.append(trimmed).toString());
                current.setLength(0);
            }
        }
        return instructions;
    }

    /** ARG defaults, for resolving ${NAME} in later instructions. */
    static Map<String, String> argDefaults(List<String> instructions) {
        Map<String, String> args = new HashMap<>();
        for (String instruction : instructions) {
            Matcher arg = Pattern.compile("^ARG\\s+(\\w+)=(\\S+)$").matcher(instruction);
            if (arg.find()) {
                args.put(arg.group(1), arg.group(2));
            }
        }
        return args;
    }

    static String resolve(String text, Map<String, String> args) {
        String resolved = text;
        for (Map.Entry<String, String> arg : args.entrySet()) {
            resolved = resolved.replace("${" + arg.getKey() + "}", arg.getValue());
        }
        return resolved;
    }

    /** Instructions of the last stage, the runtime image. */
    static List<String> finalStage(List<String> instructions) {
        int lastFrom = 0;
        for (int i = 0; i < instructions.size(); i++) {
            if (instructions.get(i).startsWith("FROM ")) {
                lastFrom = i;
            }
        }
        return instructions.subList(lastFrom, instructions.size());
    }

    static Set<Integer> exposedPorts(String service) {
        Set<Integer> ports = new TreeSet<>();
        for (String instruction : finalStage(instructions(service))) {
            if (instruction.startsWith("EXPOSE ")) {
                for (String port : instruction.substring(7).trim().split("\\s+")) {
                    ports.add(Integer.parseInt(port.replace("/tcp", "")));
                }
            }
        }
        return ports;
    }

    /** The numeric user the image runs as (last USER of the final stage). */
    static String user(String service) {
        String user = null;
        for (String instruction : finalStage(instructions(service))) {
            if (instruction.startsWith("USER ")) {
                user = instruction.substring(5).trim();
            }
        }
        return user;
    }

    @ParameterizedTest
    @FieldSource("SERVICES")
    void buildsOnAPinnedJava17RuntimeImage(String service) {
        List<String> instructions = instructions(service);
        Map<String, String> args = argDefaults(instructions);
        List<String> froms = instructions.stream()
                .filter(i -> i.startsWith("FROM "))
                .map(i -> resolve(i, args))
                .toList();
        assertThat(froms).isNotEmpty();
        assertThat(froms)
                .allSatisfy(from -> assertThat(from)
                        .matches("FROM eclipse-temurin:17\\.\\d+\\.\\d+_\\d+-jre(-[a-z]+)?( AS \\w+)?"));
    }

    @ParameterizedTest
    @FieldSource("SERVICES")
    void copiesTheServicesJarAndRunsItsSpringBootLayers(String service) {
        List<String> instructions = instructions(service);
        Map<String, String> args = argDefaults(instructions);
        assertThat(args).as("ARG VERSION = the project version").containsEntry("VERSION", Repo.projectVersion());
        String jar = service + "/target/" + service + "-" + Repo.projectVersion() + ".jar";
        assertThat(instructions).map(i -> resolve(i, args)).contains("COPY " + jar + " app.jar");
        assertThat(instructions)
                .contains("RUN java -Djarmode=tools -jar app.jar extract --layers --launcher --destination extracted");
        for (String layer : List.of("dependencies", "spring-boot-loader", "snapshot-dependencies", "application")) {
            assertThat(finalStage(instructions)).contains("COPY --from=extract /build/extracted/" + layer + "/ ./");
        }
        assertThat(finalStage(instructions))
                .last()
                .asString()
                .startsWith("ENTRYPOINT [\"java\"")
                .endsWith("\"org.springframework.boot.loader.launch.JarLauncher\"]");

        List<String> ignore = Repo.read("deploy/docker/" + service + ".Dockerfile.dockerignore")
                .lines()
                .filter(line -> !line.isBlank() && !line.startsWith("#"))
                .toList();
        assertThat(ignore)
                .as("the build context sends only the jar")
                .containsExactly("*", "!" + service + "/target/" + service + "-*.jar");
    }

    @ParameterizedTest
    @FieldSource("SERVICES")
    void runsAsANumericNonRootUser(String service) {
        String user = user(service);
        assertThat(user).as(service + " USER in the runtime stage").isNotNull().matches("\\d+(:\\d+)?");
        assertThat(Integer.parseInt(user.split(":")[0])).isPositive();
        List<String> stage = finalStage(instructions(service));
        int userIndex = stage.indexOf("USER " + user);
        assertThat(stage.subList(userIndex + 1, stage.size()))
                .as("the ENTRYPOINT runs as that user")
                .anyMatch(i -> i.startsWith("ENTRYPOINT "));
    }

    @ParameterizedTest
    @FieldSource("SERVICES")
    void exposesTheServicesPort(String service) {
        assertThat(exposedPorts(service)).contains(ComposeFileTest.defaultPort(service));
    }
}
