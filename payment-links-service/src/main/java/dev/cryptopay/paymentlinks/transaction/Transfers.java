package dev.cryptopay.paymentlinks.transaction;

import dev.cryptopay.service.error.ApiException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Which of a link's transfers with one hash a merchant's or a watcher's request means: a transaction may hold several
 * (two transfers to the link in one multisend), and then only the log index tells them apart.
 */
final class Transfers {

    private Transfers() {}

    /**
     * The transfer with {@code logIndex}, or, when none is given, the only transfer of the hash on the link. 404 when
     * there is no such transfer; 409 {@code log_index_required} when the hash names several and no log index was
     * given (the message lists them).
     *
     * @param ofHash the link's transfers with the hash, by log index
     */
    static LinkTransaction choose(List<LinkTransaction> ofHash, Integer logIndex) {
        if (logIndex != null) {
            return ofHash.stream()
                    .filter(transfer -> transfer.logIndex() == logIndex)
                    .findFirst()
                    .orElseThrow(() -> ApiException.notFound("Transaction not found for this link"));
        }
        if (ofHash.isEmpty()) {
            throw ApiException.notFound("Transaction not found for this link");
        }
        if (ofHash.size() > 1) {
            throw ApiException.conflict(
                    "log_index_required",
                    "This transaction holds " + ofHash.size() + " transfers to this link (log_index "
                            + ofHash.stream()
                                    .map(transfer -> Integer.toString(transfer.logIndex()))
                                    .collect(Collectors.joining(", "))
                            + "); say which one with log_index");
        }
        return ofHash.get(0);
    }
}
