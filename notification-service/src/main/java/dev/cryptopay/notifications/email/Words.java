package dev.cryptopay.notifications.email;

/** How the e-mails word a plan's terms. */
final class Words {

    private static final long HOUR = 3_600;
    private static final long DAY = 24 * HOUR;
    private static final long WEEK = 7 * DAY;

    private Words() {}

    /** A billing interval as "day", "7 days" is "week", "30 days", "12 hours"; null when there is none. */
    static String interval(long seconds) {
        if (seconds <= 0) {
            return null;
        }
        if (seconds % WEEK == 0) {
            return count(seconds / WEEK, "week");
        }
        if (seconds % DAY == 0) {
            return count(seconds / DAY, "day");
        }
        if (seconds % HOUR == 0) {
            return count(seconds / HOUR, "hour");
        }
        return count(seconds, "second");
    }

    /** "payment", "3 payments". */
    static String count(long n, String unit) {
        return n == 1 ? unit : n + " " + unit + "s";
    }
}
