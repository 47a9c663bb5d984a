package dev.cryptopay.webhooks.delivery;

import java.time.Instant;

/** A claimed delivery with what an attempt needs: the stored body and the endpoint's address and secret. */
record DueDelivery(
        Delivery delivery,
        String body,
        Instant eventCreatedAt,
        String url,
        byte[] secretEncrypted,
        boolean endpointActive) {}
