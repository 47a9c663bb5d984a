package dev.cryptopay.chainwatcher.report;

import java.time.Duration;

/** What became of a report. Only an acknowledged report is done with; the others stay due. */
public enum ReportOutcome {
    /** The receiver answered 2xx: the report is done with. */
    ACKNOWLEDGED,
    /**
     * The receiver answered 4xx: it refuses what the watcher says (e.g. 409 {@code transaction_conflict} or
     * {@code illegal_transition}). Never an acknowledgement: logged as an error, counted
     * ({@code chain_watcher_report_refusals_total}), and sent again no sooner than {@link #RESEND_REFUSED_AFTER}.
     */
    REFUSED,
    /** A 5xx, a timeout or a connection error: sent again on the next pass. */
    NOT_DELIVERED;

    /** How long a refused report waits before it is sent again. */
    public static final Duration RESEND_REFUSED_AFTER = Duration.ofMinutes(1);
}
