package dev.cryptopay.deploychecks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/deployment.md, the runbooks and deploy/observability/README.md: links resolve, secrets are documented. */
class DocsTest {

    static List<Path> documents() {
        List<Path> documents = new ArrayList<>(Repo.walk(Repo.path("docs/runbooks"), ".md"));
        documents.add(Repo.path("docs/deployment.md"));
        documents.add(Repo.path("deploy/observability/README.md"));
        return documents;
    }

    @Test
    void relativeLinksAndTheirAnchorsResolve() {
        Pattern link = Pattern.compile("\\]\\(([^)\\s]+)\\)");
        List<String> broken = new ArrayList<>();
        for (Path document : documents()) {
            Matcher matcher = link.matcher(Repo.read(document));
            while (matcher.find()) {
                String target = matcher.group(1);
                if (target.matches("[a-z]+:.*")) {
                    continue;
                }
                String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
                String anchor = target.contains("#") ? target.substring(target.indexOf('#') + 1) : null;
                Path resolved = file.isEmpty()
                        ? document
                        : document.getParent().resolve(file).normalize();
                if (!resolved.toFile().exists()) {
                    broken.add(Repo.relative(document) + " → " + target + " (no such file)");
                } else if (anchor != null && Markdown.section(Repo.read(resolved), anchor) == null) {
                    broken.add(Repo.relative(document) + " → " + target + " (no such heading)");
                }
            }
        }
        assertThat(broken).isEmpty();
    }

    @Test
    void theDeploymentGuideNamesEverySecretAndHowToCreateIt() {
        String guide = Repo.read("docs/deployment.md");
        for (String service : Repo.SERVICES) {
            String row = guide.lines()
                    .filter(line -> line.startsWith("| `" + service + "-secrets` |"))
                    .findFirst()
                    .orElse(null);
            assertThat(row)
                    .as("docs/deployment.md has a row for " + service + "-secrets")
                    .isNotNull();
            for (String key : KustomizeTest.secretKeys(service)) {
                assertThat(row)
                        .as("docs/deployment.md documents " + key + " of " + service + "-secrets")
                        .contains("`" + key + "`");
            }
        }
        assertThat(guide)
                .contains(
                        "kubectl",
                        "create secret generic",
                        "--from-env-file",
                        "docker compose",
                        "kubectl apply -k deploy/k8s/base/",
                        "kubectl apply -k deploy/k8s/overlays/",
                        "runbooks/alerts.md",
                        "grafana-dashboard.json",
                        "alerts.yml");
    }
}
