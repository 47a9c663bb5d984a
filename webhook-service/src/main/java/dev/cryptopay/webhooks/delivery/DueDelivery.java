package dev.cryptopay.webhooks.delivery;

import java.time.Instant;

/**
 * A claimed delivery with what an attempt needs: the stored body and the endpoint's address, secret and state (a
 * deleted endpoint's deliveries are abandoned, a disabled one's held).
 */
record DueDelivery(
        Delivery delivery,
        String body,
        Instant eventCreatedAt,
        String url,
        byte[] secretEncrypted,
        boolean endpointEnabled,
        boolean endpointDeleted) {}
