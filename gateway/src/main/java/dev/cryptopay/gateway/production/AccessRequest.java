package dev.cryptopay.gateway.production;

import java.time.Instant;
import java.util.UUID;

/**
 * One production access request as stored, with its merchant's name and e-mail address (read with it, for the
 * operator).
 *
 * @param reason    the operator's reason for a rejection, or null
 * @param decidedAt when it was approved or rejected; null while pending
 */
public record AccessRequest(
        UUID id,
        UUID merchantId,
        String merchantName,
        String merchantEmail,
        String company,
        String website,
        String useCase,
        AccessStatus status,
        String reason,
        Instant createdAt,
        Instant decidedAt) {}
