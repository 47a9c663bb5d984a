package dev.cryptopay.service.error;

/** Questions about a failure's cause chain, asked when mapping it to what a client sees. */
public final class Failures {

    private Failures() {}

    /** Whether {@code failure} or any of its causes is a {@code type}. */
    public static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
            if (t.getCause() == t) {
                return false;
            }
        }
        return false;
    }
}
