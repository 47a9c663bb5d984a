package dev.cryptopay.gateway.apidocs;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Merges OpenAPI 3.1 documents, parsed as plain maps, into one: the gateway's part gives {@code info}, {@code
 * servers}, the default {@code security} and the shared components; each service's part adds its paths, webhooks,
 * tags and components, and its description under its own title.
 *
 * <p>What a part keeps to itself stays true in the merged document: its top-level {@code security} moves onto each of
 * its operations that has none; operations tagged {@code internal} (called inside the network, never through the
 * gateway) are left out; a component whose name another part already uses for something else is renamed with the
 * part's prefix, and the part's references follow. Two parts describing the same path or webhook is a defect of the
 * parts, and refused.
 */
final class ApiDescriptionMerger {

    /** One service's document and the prefix its clashing component names get ({@code Webhooks} + {@code Problem}). */
    record Part(String service, String prefix, Map<String, Object> document) {}

    private static final Set<String> OPERATIONS =
            Set.of("get", "put", "post", "delete", "options", "head", "patch", "trace");

    private ApiDescriptionMerger() {}

    /**
     * The merged document.
     *
     * @param unavailable services whose part could not be read: the document says so in {@code info.description} and
     *     {@code x-unavailable-parts}
     * @throws IllegalArgumentException when two parts describe the same path or webhook
     */
    static Map<String, Object> merge(Map<String, Object> gateway, List<Part> parts, List<String> unavailable) {
        Map<String, Object> merged = deepCopy(gateway);
        Map<String, Object> info = section(merged, "info");
        StringBuilder description = new StringBuilder(String.valueOf(info.getOrDefault("description", "")));
        for (Part part : parts) {
            Map<String, Object> document = deepCopy(part.document());
            dropInternalOperations(document);
            moveSecurityOntoOperations(document);
            makeServersRelative(section(document, "paths"));
            renameClashingComponents(document, section(merged, "components"), part.prefix());
            addAll(section(merged, "paths"), section(document, "paths"), "path", part.service());
            if (document.get("webhooks") instanceof Map<?, ?>) {
                addAll(section(merged, "webhooks"), section(document, "webhooks"), "webhook", part.service());
            }
            addComponents(section(merged, "components"), section(document, "components"));
            addTags(merged, document);
            Map<String, Object> partInfo = section(document, "info");
            description
                    .append("\n\n## ")
                    .append(partInfo.getOrDefault("title", part.service()))
                    .append("\n\n")
                    .append(String.valueOf(partInfo.getOrDefault("description", ""))
                            .strip());
        }
        if (!unavailable.isEmpty()) {
            description.insert(
                    0,
                    "**Incomplete:** the part of " + String.join(", ", unavailable)
                            + " could not be read just now, so its routes are missing below. Reload in a moment.\n\n");
            merged.put("x-unavailable-parts", List.copyOf(unavailable));
        }
        info.put("description", description.toString());
        return merged;
    }

    private static void dropInternalOperations(Map<String, Object> document) {
        Map<String, Object> paths = section(document, "paths");
        paths.values().removeIf(item -> {
            Map<String, Object> operations = asMap(item);
            operations
                    .entrySet()
                    .removeIf(entry -> OPERATIONS.contains(entry.getKey())
                            && asMap(entry.getValue()).get("tags") instanceof List<?> tags
                            && tags.contains("internal"));
            return operations.keySet().stream().noneMatch(OPERATIONS::contains);
        });
        if (document.get("tags") instanceof List<?> tags) {
            tags.removeIf(tag -> tag instanceof Map<?, ?> map && "internal".equals(map.get("name")));
        }
    }

    private static void moveSecurityOntoOperations(Map<String, Object> document) {
        Object security = document.remove("security");
        if (security == null) {
            return;
        }
        for (Object item : section(document, "paths").values()) {
            asMap(item).forEach((key, operation) -> {
                if (OPERATIONS.contains(key)) {
                    asMap(operation).putIfAbsent("security", deepCopyValue(security));
                }
            });
        }
    }

    /**
     * A part names its own public host on paths outside the base URL (the checkout at the gateway's root); in the
     * merged document, served by the gateway, they become paths on the same host ({@code https://host} → {@code /}).
     */
    private static void makeServersRelative(Map<String, Object> paths) {
        for (Object item : paths.values()) {
            Map<String, Object> pathItem = asMap(item);
            relative(pathItem.get("servers"));
            pathItem.forEach((key, operation) -> {
                if (OPERATIONS.contains(key)) {
                    relative(asMap(operation).get("servers"));
                }
            });
        }
    }

    private static void relative(Object servers) {
        if (servers instanceof List<?> list) {
            for (Object server : list) {
                Map<String, Object> entry = asMap(server);
                if (entry.get("url") instanceof String url && url.contains("://")) {
                    String path = URI.create(url).getRawPath();
                    entry.put("url", path == null || path.isEmpty() ? "/" : path);
                }
            }
        }
    }

    /** Renames, in {@code document}, the components whose names {@code existing} holds with other content. */
    private static void renameClashingComponents(
            Map<String, Object> document, Map<String, Object> existing, String prefix) {
        Map<String, String> renamedRefs = new HashMap<>();
        Map<String, Object> components = section(document, "components");
        for (Map.Entry<String, Object> kind : components.entrySet()) {
            Map<String, Object> mine = asMap(kind.getValue());
            Map<String, Object> theirs = existing.get(kind.getKey()) instanceof Map<?, ?> map ? asMap(map) : Map.of();
            for (String name : List.copyOf(mine.keySet())) {
                if (theirs.containsKey(name) && !Objects.equals(theirs.get(name), mine.get(name))) {
                    String renamed = prefix + name;
                    mine.put(renamed, mine.remove(name));
                    renamedRefs.put(
                            "#/components/" + kind.getKey() + "/" + name,
                            "#/components/" + kind.getKey() + "/" + renamed);
                }
            }
        }
        if (!renamedRefs.isEmpty()) {
            rewriteRefs(document, renamedRefs);
        }
    }

    private static void rewriteRefs(Object node, Map<String, String> renamed) {
        if (node instanceof Map<?, ?> map) {
            Map<String, Object> object = asMap(map);
            if (object.get("$ref") instanceof String ref && renamed.containsKey(ref)) {
                object.put("$ref", renamed.get(ref));
            }
            object.values().forEach(value -> rewriteRefs(value, renamed));
        } else if (node instanceof List<?> list) {
            list.forEach(value -> rewriteRefs(value, renamed));
        }
    }

    private static void addAll(Map<String, Object> into, Map<String, Object> from, String what, String service) {
        for (Map.Entry<String, Object> entry : from.entrySet()) {
            if (into.putIfAbsent(entry.getKey(), entry.getValue()) != null) {
                throw new IllegalArgumentException(
                        "the " + what + " " + entry.getKey() + " of " + service + " is described by another part too");
            }
        }
    }

    private static void addComponents(Map<String, Object> into, Map<String, Object> from) {
        from.forEach((kind, named) -> section(into, kind).putAll(asMap(named)));
    }

    private static void addTags(Map<String, Object> merged, Map<String, Object> document) {
        if (!(document.get("tags") instanceof List<?> tags)) {
            return;
        }
        List<Object> into = merged.get("tags") instanceof List<?> list ? asList(list) : new ArrayList<>();
        merged.put("tags", into);
        for (Object tag : tags) {
            Object name = asMap(tag).get("name");
            if (into.stream()
                    .noneMatch(existing -> Objects.equals(asMap(existing).get("name"), name))) {
                into.add(tag);
            }
        }
    }

    /** The map under {@code key}, created when absent. */
    private static Map<String, Object> section(Map<String, Object> parent, String key) {
        return asMap(parent.computeIfAbsent(key, k -> new LinkedHashMap<String, Object>()));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> asList(Object value) {
        return (List<Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> deepCopy(Map<String, Object> map) {
        return (Map<String, Object>) deepCopyValue(map);
    }

    private static Object deepCopyValue(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((key, item) -> copy.put(String.valueOf(key), deepCopyValue(item)));
            return copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>();
            list.forEach(item -> copy.add(deepCopyValue(item)));
            return copy;
        }
        return value;
    }
}
