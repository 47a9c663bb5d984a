package dev.cryptopay.service.outbox;

/** Kafka record header names carried by every domain event. */
public final class EventHeaders {

    public static final String EVENT_ID = "event-id";
    public static final String EVENT_TYPE = "event-type";
    public static final String AGGREGATE_TYPE = "aggregate-type";
    public static final String AGGREGATE_ID = "aggregate-id";

    private EventHeaders() {}
}
