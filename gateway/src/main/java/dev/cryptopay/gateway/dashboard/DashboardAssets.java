package dev.cryptopay.gateway.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.http.MediaType;

/**
 * The dashboard's files, read once at start-up from {@code classpath:dashboard/}: the page ({@code index.html}) and
 * the flat folder {@code assets/} (ES modules, the stylesheet). All assets share one version, the first 16 hex digits
 * of the SHA-256 over their names and contents, and are served under {@code /dashboard/assets/<version>/<name>}: a
 * module's relative imports ({@code ./api.js}) then resolve within the same version without rewriting, any change to
 * any file gives every file a new address, and each address can be cached for a year. The page is rendered once,
 * with the versioned asset path and whether sign-up is offered.
 */
public final class DashboardAssets {

    /** Where the dashboard lives on the gateway. */
    public static final String ROOT = "/dashboard";

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]*\\.(js|css)");
    private static final Map<String, MediaType> TYPES = Map.of(
            "js", MediaType.parseMediaType("text/javascript;charset=utf-8"),
            "css", MediaType.parseMediaType("text/css;charset=utf-8"));

    /** One file and its type. */
    public record Asset(byte[] bytes, MediaType type) {}

    private final Map<String, Asset> assets;
    private final String version;
    private final byte[] page;

    private DashboardAssets(Map<String, Asset> assets, String version, byte[] page) {
        this.assets = assets;
        this.version = version;
        this.page = page;
    }

    /**
     * Reads the files; fails at start-up when the page or an asset is missing or an asset's name is not a plain
     * lowercase {@code name.js} or {@code name.css}.
     *
     * @param signupEnabled whether the page offers sign-up (the gateway routes {@code POST /api/v1/signup})
     */
    public static DashboardAssets load(boolean signupEnabled) {
        Map<String, Asset> assets = new TreeMap<>();
        MessageDigest digest = sha256();
        try {
            Resource[] found = new PathMatchingResourcePatternResolver(DashboardAssets.class.getClassLoader())
                    .getResources("classpath:dashboard/assets/*");
            for (Resource resource : found) {
                String name = resource.getFilename();
                if (name == null || !NAME.matcher(name).matches()) {
                    throw new IllegalStateException("Unexpected dashboard asset " + name);
                }
                try (InputStream in = resource.getInputStream()) {
                    String extension = name.substring(name.lastIndexOf('.') + 1);
                    assets.put(name, new Asset(in.readAllBytes(), TYPES.get(extension)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!assets.containsKey("app.js")) {
            throw new IllegalStateException("The dashboard's assets (dashboard/assets/app.js) are missing");
        }
        assets.forEach((name, asset) -> {
            digest.update(name.getBytes(StandardCharsets.UTF_8));
            digest.update((byte) 0);
            digest.update(asset.bytes());
            digest.update((byte) 0);
        });
        String version = java.util.HexFormat.of().formatHex(digest.digest(), 0, 8);
        String template = read("dashboard/index.html");
        String page = template.replace("{{assets}}", ROOT + "/assets/" + version)
                .replace("{{signup}}", signupEnabled ? "enabled" : "disabled");
        return new DashboardAssets(Map.copyOf(assets), version, page.getBytes(StandardCharsets.UTF_8));
    }

    /** The version in every asset's address. */
    public String version() {
        return version;
    }

    /** The page, the same for every path under {@link #ROOT} that is not an asset. */
    public byte[] page() {
        return page.clone();
    }

    /** The asset of this version and name, or empty (another version, an unknown name). */
    public Optional<Asset> asset(String requestedVersion, String name) {
        return version.equals(requestedVersion) ? Optional.ofNullable(assets.get(name)) : Optional.empty();
    }

    private static String read(String path) {
        try (InputStream in = DashboardAssets.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException(path + " is missing from the gateway's classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
