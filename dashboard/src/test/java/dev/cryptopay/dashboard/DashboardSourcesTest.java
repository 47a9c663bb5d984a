package dev.cryptopay.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The rules the dashboard's sources keep, read from the files themselves: nothing turns text into markup or code, the
 * page has no inline script, style or handler (the Content-Security-Policy would block them), every module's imports
 * name files that exist, and every asset has a name the gateway serves. Its behaviour is walked in Chromium by the
 * end-to-end tests ({@code end-to-end-tests/browser/dashboard-walk.mjs}).
 */
class DashboardSourcesTest {

    private static final Path ROOT = Path.of("src", "main", "resources", "dashboard");
    private static final Path ASSETS = ROOT.resolve("assets");

    /** What would turn text into markup or run text as code. */
    private static final Pattern UNSAFE =
            Pattern.compile("innerHTML|outerHTML|insertAdjacentHTML|document\\.write|\\beval\\s*\\(|new\\s+Function\\b"
                    + "|setTimeout\\s*\\(\\s*[\"'`]|setInterval\\s*\\(\\s*[\"'`]|\\.style\\b|setAttribute\\(\\s*[\"']on"
                    + "|javascript:");

    private static final Pattern IMPORT =
            Pattern.compile("(?m)^\\s*import\\s[^;]*?from\\s+\"([^\"]+)\"|import\\(\"([^\"]+)\"\\)");
    private static final Pattern INLINE =
            Pattern.compile("<script(?![^>]*\\ssrc=)|\\sstyle=|<style|\\son[a-z]+=", Pattern.CASE_INSENSITIVE);

    @Test
    void noModuleTurnsTextIntoMarkupOrCode() throws IOException {
        Map<String, String> scripts = files(".js");
        assertThat(scripts).containsKeys("app.js", "signing.js", "api.js", "dom.js", "session.js");
        scripts.forEach((name, source) -> {
            Matcher unsafe = UNSAFE.matcher(source);
            assertThat(unsafe.find() ? unsafe.group() : null).as(name).isNull();
        });
    }

    @Test
    void everyImportNamesAnAssetBesideIt() throws IOException {
        Map<String, String> scripts = files(".js");
        scripts.forEach((name, source) -> {
            Matcher imports = IMPORT.matcher(source);
            while (imports.find()) {
                String target = imports.group(1) != null ? imports.group(1) : imports.group(2);
                assertThat(target).as(name + " imports " + target).matches("\\./[a-z0-9-]+\\.js");
                assertThat(scripts).as(name + " imports " + target).containsKey(target.substring(2));
            }
        });
    }

    @Test
    void assetsHaveNamesTheGatewayServes() throws IOException {
        try (Stream<Path> files = Files.list(ASSETS)) {
            assertThat(files.map(path -> path.getFileName().toString()))
                    .isNotEmpty()
                    .allMatch(name -> name.matches("[a-z0-9][a-z0-9-]*\\.(js|css)"), "lowercase name.js or name.css");
        }
    }

    @Test
    void thePageHasNoInlineCodeAndLinksItsVersionedAssets() throws IOException {
        String page = Files.readString(ROOT.resolve("index.html"));
        assertThat(INLINE.matcher(page).find())
                .as("inline script, style or handler")
                .isFalse();
        assertThat(page)
                .contains("<html lang=\"en\">")
                .contains("<meta name=\"viewport\"")
                .contains("<script type=\"module\" src=\"{{assets}}/app.js\"></script>")
                .contains("href=\"{{assets}}/dashboard.css\"")
                .contains("content=\"{{signup}}\"")
                .contains("aria-live=\"polite\"")
                .doesNotContain("http://", "https://");
        assertThat(page.split("<h1", -1)).as("one h1").hasSize(2);
    }

    private static Map<String, String> files(String extension) throws IOException {
        Map<String, String> found = new TreeMap<>();
        try (Stream<Path> files = Files.list(ASSETS)) {
            for (Path path : files.filter(p -> p.toString().endsWith(extension)).toList()) {
                found.put(path.getFileName().toString(), Files.readString(path));
            }
        }
        return found;
    }
}
