package dev.cryptopay.service.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * The JSON value of every event record on a {@code <service>.events} topic:
 * {@code {id, type, created_at, merchant_id, mode, data}}, and {@code notify} when the event concerns a customer who
 * gave an e-mail address ({@link Notify}; notification-service reads it, webhook bodies never carry it). Producers
 * write it through the outbox; consumers read the JSON (never producer classes) and may use these member names.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record EventEnvelope(
        String id,
        String type,
        String createdAt,
        String merchantId,
        String mode,
        Object data,

        @JsonProperty(NOTIFY) @JsonInclude(JsonInclude.Include.NON_NULL)
        Notify notifyTo) {

    public static final String ID = "id";
    public static final String TYPE = "type";
    public static final String CREATED_AT = "created_at";
    public static final String MERCHANT_ID = "merchant_id";
    public static final String MODE = "mode";
    public static final String DATA = "data";
    public static final String NOTIFY = "notify";
}
