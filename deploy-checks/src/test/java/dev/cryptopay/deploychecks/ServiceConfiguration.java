package dev.cryptopay.deploychecks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * What a service module really reads from its environment, so that the deployment files give it nothing else.
 *
 * <p>An environment variable is real configuration of a module when one of these holds:
 * <ol>
 *   <li>the module's {@code application.yml} references it as a placeholder ({@code ${KEY}} or
 *       {@code ${KEY:default}});</li>
 *   <li>Spring Boot's relaxed binding maps it onto a property that the module binds: a component of one of its
 *       {@code @ConfigurationProperties} records (read from the source of the module and of {@code service-support}
 *       when the module depends on it; nested records are followed), or one of the few Spring Boot properties in
 *       {@link #SPRING_BOOT_PROPERTIES}. The mapping is decided by Spring Boot's own
 *       {@link SystemEnvironmentPropertySource} lookup, the one the binder uses, so {@code _} versus {@code -}
 *       subtleties are judged exactly as at run time;</li>
 *   <li>it is read by the JVM itself ({@link #JVM_VARIABLES}).</li>
 * </ol>
 * The modules have no generated {@code spring-configuration-metadata.json}, hence the record components.
 */
final class ServiceConfiguration {

    /**
     * Spring Boot properties the deployment files may set, beyond the modules' own. Each must appear in the Spring
     * Boot configuration metadata on this module's test class path (checked by a test), so a typo cannot slip in.
     * <ul>
     *   <li>{@code management.server.port}: the gateway serves actuator (probes, metrics) on its own port.</li>
     *   <li>{@code spring.profiles.active}: the production overlay runs the services with the production profile.</li>
     * </ul>
     */
    static final Set<String> SPRING_BOOT_PROPERTIES = Set.of("management.server.port", "spring.profiles.active");

    /** Read by the JVM, not by Spring: extra JVM flags for the container. */
    static final Set<String> JVM_VARIABLES = Set.of("JAVA_TOOL_OPTIONS");

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z0-9_]+)(:[^}]*)?}");
    private static final Pattern CONFIGURATION_PROPERTIES =
            Pattern.compile("@ConfigurationProperties\\(\\s*(?:(?:value|prefix)\\s*=\\s*)?\"([^\"]+)\"\\s*\\)");
    private static final Pattern RECORD = Pattern.compile("\\brecord\\s+(\\w+)\\s*\\(");
    private static final Pattern LIST_OF =
            Pattern.compile("(?:java\\.util\\.)?List\\s*<\\s*(?:[\\w.]+\\.)?(\\w+)\\s*>");
    static final Pattern LOOPBACK = Pattern.compile("(?<![\\w.-])(127\\.0\\.0\\.1|localhost)(?![\\w.-])");
    static final Pattern DATABASE_VARIABLE =
            Pattern.compile("(DATABASE|[A-Z0-9]+_DB)_(R2DBC_URL|JDBC_URL|USER|PASSWORD)");

    final String module;
    /** Placeholder name → whether it has a default ({@code ${KEY:…}}). */
    final Map<String, Boolean> placeholders = new HashMap<>();
    /** Placeholder name → its default ({@code …} of {@code ${KEY:…}}), for the placeholders that have one. */
    final Map<String, String> defaults = new HashMap<>();
    /** Canonical property names bound by the module's records, e.g. {@code webhooks.delivery.retry-schedule}. */
    final Set<String> recordProperties = new TreeSet<>();
    /** Placeholder name → the property whose value holds it, e.g. {@code chain-watcher.networks[0].rpc-url}. */
    final Map<String, String> placeholderProperties = new HashMap<>();

    /**
     * Indexes a list of records may be given by environment variables ({@code CHAINWATCHER_NETWORKS_0_NAME}): a
     * {@code List<SomeRecord>} component binds {@code name[0].field} up to {@code name[9].field}.
     */
    static final int LIST_INDEXES = 10;

    private ServiceConfiguration(String module) {
        this.module = module;
    }

    static ServiceConfiguration of(String module) {
        ServiceConfiguration configuration = new ServiceConfiguration(module);
        Path resources = Repo.path(module + "/src/main/resources");
        for (Path yml : Repo.walk(resources, ".yml")) {
            for (Object document : Repo.yaml().loadAll(Repo.read(yml))) {
                configuration.collectPlaceholderProperties("", document);
            }
            Matcher matcher = PLACEHOLDER.matcher(Repo.read(yml));
            while (matcher.find()) {
                configuration.placeholders.merge(matcher.group(1), matcher.group(2) != null, Boolean::logicalAnd);
                if (matcher.group(2) != null) {
                    configuration.defaults.putIfAbsent(
                            matcher.group(1), matcher.group(2).substring(1));
                }
            }
        }
        List<String> sourceModules = new ArrayList<>(List.of(module));
        if (Repo.read(module + "/pom.xml").contains("<artifactId>service-support</artifactId>")) {
            sourceModules.add("service-support");
        }
        for (String sourceModule : sourceModules) {
            for (Path java : Repo.walk(Repo.path(sourceModule + "/src/main/java"), ".java")) {
                configuration.recordProperties.addAll(recordProperties(Repo.read(java)));
            }
        }
        return configuration;
    }

    /** Placeholders without a default: the service cannot start unless the deployment sets them. */
    Set<String> requiredVariables() {
        Set<String> required = new TreeSet<>();
        placeholders.forEach((name, hasDefault) -> {
            if (!hasDefault) {
                required.add(name);
            }
        });
        return required;
    }

    /**
     * Placeholders whose default points at this machine ({@code 127.0.0.1} or {@code localhost}): a database, Kafka,
     * Redis or another service as run on a developer's machine. In a container that address is the container
     * itself, so every deployment must set them.
     */
    Set<String> loopbackDefaults() {
        Set<String> loopback = new TreeSet<>();
        defaults.forEach((name, value) -> {
            if (LOOPBACK.matcher(value).find()) {
                loopback.add(name);
            }
        });
        return loopback;
    }

    /**
     * {@link #loopbackDefaults()} that a deployment setting {@code variables} still needs. Spring Boot binds a list
     * from the one property source that has elements of it, environment variables first; so a placeholder inside a
     * list of {@code application.yml} ({@code chain-watcher.networks[0].rpc-url}) is not read at all when the
     * variables give that list ({@code CHAINWATCHER_NETWORKS_0_…}).
     */
    Set<String> loopbackDefaultsLeftWith(Set<String> variables) {
        Set<String> replacedLists = new TreeSet<>();
        for (String variable : variables) {
            String property = boundRecordProperty(variable);
            if (property != null && property.contains("[")) {
                replacedLists.add(property.substring(0, property.indexOf('[')));
            }
        }
        Set<String> left = new TreeSet<>();
        for (String name : loopbackDefaults()) {
            String property = placeholderProperties.getOrDefault(name, "");
            boolean inReplacedList =
                    property.contains("[") && replacedLists.contains(property.substring(0, property.indexOf('[')));
            if (!inReplacedList) {
                left.add(name);
            }
        }
        return left;
    }

    /** An internal caller's own private key, {@code <CALLER>_INTERNAL_AUTH_PRIVATE_KEY}: the caller alone holds it. */
    static final Pattern PRIVATE_KEY_VARIABLE = Pattern.compile("([A-Z0-9_]+)_INTERNAL_AUTH_PRIVATE_KEY");
    /** The public keys of an internal caller, {@code <CALLER>_INTERNAL_AUTH_PUBLIC_KEYS}: held by its receivers. */
    static final Pattern PUBLIC_KEYS_VARIABLE = Pattern.compile("([A-Z0-9_]+)_INTERNAL_AUTH_PUBLIC_KEYS");

    /**
     * Placeholders of internal callers' private keys ({@code GATEWAY_INTERNAL_AUTH_PRIVATE_KEY},
     * {@code CHAIN_WATCHER_INTERNAL_AUTH_PRIVATE_KEY}): the caller this service signs as.
     */
    Set<String> internalPrivateKeyVariables() {
        return placeholdersMatching(PRIVATE_KEY_VARIABLE);
    }

    /**
     * Placeholders of internal callers' public keys ({@code GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS},
     * {@code CHAIN_WATCHER_INTERNAL_AUTH_PUBLIC_KEYS}): the callers whose tokens this service checks.
     */
    Set<String> internalPublicKeyVariables() {
        return placeholdersMatching(PUBLIC_KEYS_VARIABLE);
    }

    /** Both: every internal caller's key this service reads. */
    Set<String> internalKeyVariables() {
        Set<String> keys = new TreeSet<>(internalPrivateKeyVariables());
        keys.addAll(internalPublicKeyVariables());
        return keys;
    }

    /** The caller a key variable belongs to, as the variable spells it: {@code GATEWAY}, {@code CHAIN_WATCHER}. */
    static String caller(String keyVariable) {
        for (Pattern pattern : List.of(PRIVATE_KEY_VARIABLE, PUBLIC_KEYS_VARIABLE)) {
            Matcher matcher = pattern.matcher(keyVariable);
            if (matcher.matches()) {
                return matcher.group(1);
            }
        }
        throw new IllegalArgumentException(keyVariable + " is no internal caller's key");
    }

    private Set<String> placeholdersMatching(Pattern pattern) {
        Set<String> matching = new TreeSet<>();
        for (String name : placeholders.keySet()) {
            if (pattern.matcher(name).matches()) {
                matching.add(name);
            }
        }
        return matching;
    }

    /** Placeholders of a database connection: {@code DATABASE_*} or {@code <NAME>_DB_*} URL, user and password. */
    Set<String> databaseVariables() {
        Set<String> database = new TreeSet<>();
        for (String name : placeholders.keySet()) {
            if (DATABASE_VARIABLE.matcher(name).matches()) {
                database.add(name);
            }
        }
        return database;
    }

    /** Why {@code variable} is real configuration of this module; null when it is not. */
    String explain(String variable) {
        if (placeholders.containsKey(variable)) {
            return "placeholder in " + module + "/src/main/resources/application.yml";
        }
        if (JVM_VARIABLES.contains(variable)) {
            return "read by the JVM";
        }
        String property = boundRecordProperty(variable);
        if (property != null) {
            return "binds " + property + " (a @ConfigurationProperties record component)";
        }
        for (String bootProperty : SPRING_BOOT_PROPERTIES) {
            if (environment(variable).getConfigurationProperty(ConfigurationPropertyName.of(bootProperty)) != null) {
                return "binds Spring Boot's " + bootProperty;
            }
        }
        if (usesKafka()) {
            return KafkaSecuritySettings.explain(environment(variable));
        }
        return null;
    }

    /** Whether the module talks to Kafka (its application.yml reads {@code KAFKA_BOOTSTRAP_SERVERS}). */
    boolean usesKafka() {
        return placeholders.containsKey("KAFKA_BOOTSTRAP_SERVERS");
    }

    /** The record component property the variable binds (Spring Boot's own lookup), or null. */
    String boundRecordProperty(String variable) {
        ConfigurationPropertySource environment = environment(variable);
        for (String property : recordProperties) {
            if (environment.getConfigurationProperty(ConfigurationPropertyName.of(property)) != null) {
                return property;
            }
        }
        return null;
    }

    /** A source holding only this variable, with Spring Boot's environment-variable mapping. */
    static ConfigurationPropertySource environment(String variable) {
        // Spring Boot applies its environment-variable mapping only to a source with this name.
        return ConfigurationPropertySource.from(new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, Map.of(variable, "value")));
    }

    /** Walks a parsed YAML document and notes under which property each placeholder sits. */
    private void collectPlaceholderProperties(String path, Object node) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((key, value) ->
                    collectPlaceholderProperties(path.isEmpty() ? String.valueOf(key) : path + "." + key, value));
        } else if (node instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                collectPlaceholderProperties(path + "[" + i + "]", list.get(i));
            }
        } else if (node != null) {
            Matcher matcher = PLACEHOLDER.matcher(String.valueOf(node));
            while (matcher.find()) {
                placeholderProperties.putIfAbsent(matcher.group(1), path);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------- parsing

    /** Property names bound by the {@code @ConfigurationProperties} records declared in one Java source file. */
    static Set<String> recordProperties(String source) {
        String code = JavaSource.withoutComments(source);
        Map<String, String> recordHeaders = new HashMap<>();
        Matcher record = RECORD.matcher(code);
        while (record.find()) {
            int open = record.end() - 1;
            recordHeaders.put(record.group(1), code.substring(open + 1, JavaSource.closing(code, open)));
        }
        Set<String> properties = new TreeSet<>();
        Matcher annotation = CONFIGURATION_PROPERTIES.matcher(code);
        while (annotation.find()) {
            Matcher annotated = RECORD.matcher(code);
            if (annotated.find(annotation.end())) {
                addComponents(annotation.group(1), recordHeaders.get(annotated.group(1)), recordHeaders, properties);
            }
        }
        return properties;
    }

    private static void addComponents(
            String prefix, String header, Map<String, String> records, Set<String> properties) {
        for (String component : JavaSource.splitTopLevel(JavaSource.withoutAnnotations(header))) {
            String[] words = component.trim().split("\\s+");
            if (words.length < 2) {
                continue;
            }
            String name = prefix + "." + kebab(words[words.length - 1]);
            String type = String.join(" ", java.util.Arrays.copyOf(words, words.length - 1));
            String simpleType =
                    type.replaceAll("<.*", "").replaceAll(".*\\.", "").trim();
            properties.add(name);
            if (records.containsKey(simpleType)) {
                addComponents(name, records.get(simpleType), records, properties);
            }
            Matcher listOf = LIST_OF.matcher(type);
            if (listOf.matches() && records.containsKey(listOf.group(1))) {
                for (int index = 0; index < LIST_INDEXES; index++) {
                    addComponents(name + "[" + index + "]", records.get(listOf.group(1)), records, properties);
                }
            }
        }
    }

    static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
    }

    /** Just enough Java lexing to read record headers: comments, strings, annotations and brackets. */
    static final class JavaSource {

        private JavaSource() {}

        static String withoutComments(String source) {
            StringBuilder out = new StringBuilder(source.length());
            int i = 0;
            while (i < source.length()) {
                char c = source.charAt(i);
                if (source.startsWith("\"\"\"", i)) {
                    int end = source.indexOf("\"\"\"", i + 3);
                    end = end < 0 ? source.length() : end + 3;
                    out.append(source, i, end);
                    i = end;
                } else if (c == '"' || c == '\'') {
                    int end = skipQuoted(source, i);
                    out.append(source, i, end);
                    i = end;
                } else if (source.startsWith("//", i)) {
                    int end = source.indexOf('\n', i);
                    i = end < 0 ? source.length() : end;
                } else if (source.startsWith("/*", i)) {
                    int end = source.indexOf("*/", i + 2);
                    i = end < 0 ? source.length() : end + 2;
                    out.append(' ');
                } else {
                    out.append(c);
                    i++;
                }
            }
            return out.toString();
        }

        /** Index just past the string or char literal starting at {@code start}. */
        static int skipQuoted(String s, int start) {
            char quote = s.charAt(start);
            int i = start + 1;
            while (i < s.length() && s.charAt(i) != quote) {
                i += s.charAt(i) == '\\' ? 2 : 1;
            }
            return Math.min(i + 1, s.length());
        }

        /** Index of the bracket closing the one at {@code open}, skipping literals. */
        static int closing(String s, int open) {
            int depth = 0;
            for (int i = open; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '"' || c == '\'') {
                    i = skipQuoted(s, i) - 1;
                } else if (c == '(' || c == '{' || c == '[') {
                    depth++;
                } else if (c == ')' || c == '}' || c == ']') {
                    depth--;
                    if (depth == 0) {
                        return i;
                    }
                }
            }
            throw new IllegalArgumentException("Unbalanced brackets from index " + open);
        }

        static String withoutAnnotations(String s) {
            StringBuilder out = new StringBuilder();
            int i = 0;
            while (i < s.length()) {
                char c = s.charAt(i);
                if (c == '"' || c == '\'') {
                    int end = skipQuoted(s, i);
                    out.append(s, i, end);
                    i = end;
                } else if (c == '@') {
                    i++;
                    while (i < s.length() && (Character.isJavaIdentifierPart(s.charAt(i)) || s.charAt(i) == '.')) {
                        i++;
                    }
                    int next = i;
                    while (next < s.length() && Character.isWhitespace(s.charAt(next))) {
                        next++;
                    }
                    if (next < s.length() && s.charAt(next) == '(') {
                        i = closing(s, next) + 1;
                    }
                    out.append(' ');
                } else {
                    out.append(c);
                    i++;
                }
            }
            return out.toString();
        }

        static List<String> splitTopLevel(String s) {
            List<String> parts = new ArrayList<>();
            int depth = 0;
            int start = 0;
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '"' || c == '\'') {
                    i = skipQuoted(s, i) - 1;
                } else if (c == '(' || c == '<' || c == '{' || c == '[') {
                    depth++;
                } else if (c == ')' || c == '>' || c == '}' || c == ']') {
                    depth--;
                } else if (c == ',' && depth == 0) {
                    parts.add(s.substring(start, i));
                    start = i + 1;
                }
            }
            parts.add(s.substring(start));
            return parts;
        }
    }
}
