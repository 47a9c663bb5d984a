package dev.cryptopay.subscriptions.page;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Durations, dates and counts in the customer's words (English, UTC). */
final class Words {

    private static final DateTimeFormatter DATE_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter DATE =
            DateTimeFormatter.ofPattern("yyyy-MM-dd").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter DATE_TIME_SHORT =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    private Words() {}

    /** 2592000 → "30 days", 3600 → "1 hour", 90 → "90 seconds": the largest whole unit. */
    static String duration(long seconds) {
        if (seconds >= 86_400 && seconds % 86_400 == 0) {
            return count(seconds / 86_400, "day");
        }
        if (seconds >= 3600 && seconds % 3600 == 0) {
            return count(seconds / 3600, "hour");
        }
        if (seconds >= 60 && seconds % 60 == 0) {
            return count(seconds / 60, "minute");
        }
        return count(seconds, "second");
    }

    /** "every day", "every week", "every 30 days". */
    static String every(long seconds) {
        if (seconds == 86_400) {
            return "every day";
        }
        if (seconds == 604_800) {
            return "every week";
        }
        if (seconds == 3600) {
            return "every hour";
        }
        return "every " + duration(seconds);
    }

    /** "1 payment", "12 payments". */
    static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    static String dateTime(Instant instant) {
        return DATE_TIME.format(instant);
    }

    static String date(Instant instant) {
        return DATE.format(instant);
    }

    /**
     * A billing period: dates for periods of a day or more ("2026-11-26 – 2026-12-26"), times for shorter ones
     * ("2026-11-26 03:39 – 04:39 UTC"); the start alone when the end is unknown.
     */
    static String period(Instant start, Instant end, long intervalSeconds) {
        if (intervalSeconds >= 86_400) {
            return end == null ? date(start) : date(start) + " – " + date(end);
        }
        if (end == null) {
            return dateTime(start);
        }
        String endText = date(start).equals(date(end)) ? TIME.format(end) : dateTime(end);
        return DATE_TIME_SHORT.format(start) + " – " + endText;
    }

    /** ISO-8601, for {@code <time datetime>}. */
    static String iso(Instant instant) {
        return DateTimeFormatter.ISO_INSTANT.format(instant);
    }
}
