package dev.cryptopay.auth;

/**
 * Whether a merchant request runs against test or live money.
 *
 * <p>The mode travels in API key prefixes and in internal identity headers, so the wire
 * spelling is fixed here rather than derived from {@link #name()}.
 */
public enum Mode {
    TEST("test"),
    LIVE("live");

    private final String wireName;

    Mode(String wireName) {
        this.wireName = wireName;
    }

    /** The lower-case spelling used on the wire ({@code "test"} or {@code "live"}). */
    public String wireName() {
        return wireName;
    }

    /**
     * Reads the exact wire spelling; anything else (including {@code null} or {@code "TEST"})
     * is rejected so that a typo never silently selects a mode.
     *
     * @throws IllegalArgumentException if {@code wireName} is not {@code "test"} or {@code "live"}
     */
    public static Mode fromWireName(String wireName) {
        for (Mode mode : values()) {
            if (mode.wireName.equals(wireName)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("Unknown mode '" + wireName + "': expected 'test' or 'live'");
    }
}
