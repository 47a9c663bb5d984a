package dev.cryptopay.deploy;

/**
 * Logging of the launcher jar's command-line tools: warnings only, on standard error ({@code tool-logback.xml}), so
 * a library's debug lines never mix with what a tool prints for people or scripts.
 */
final class ToolLogging {

    private ToolLogging() {}

    /** Selects {@code tool-logback.xml} unless a logback configuration is set already; call before any logger. */
    static void quiet() {
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "tool-logback.xml");
        }
    }
}
