package dev.cryptopay.notifications.notification;

/** Where an e-mail stands. */
public enum NotificationStatus {
    /** To be sent (again) when due. */
    PENDING("pending"),
    /** The SMTP server accepted it. */
    SENT("sent"),
    /** Refused for good: a permanent (5xx) answer, or an address that is no address. */
    FAILED("failed"),
    /** Every attempt of the retry schedule failed. */
    GIVEN_UP("given_up");

    private final String wireName;

    NotificationStatus(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
