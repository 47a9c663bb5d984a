package dev.cryptopay.paymentlinks.paymentlink;

import java.time.Instant;
import java.util.UUID;

/**
 * A transfer recorded against one of the merchant's links, as the merchant-wide list shows it.
 *
 * @param transaction the transfer, as a single-link read shows it
 * @param linkId      the link it was sent to
 * @param linkName    that link's {@code payment_name}
 * @param updatedAt   when its record last changed (confirmations, status, refunds); for a confirmed transfer no
 *                    earlier than its confirmation
 */
record MerchantTransfer(RecordedTransaction transaction, UUID linkId, String linkName, Instant updatedAt) {}
