package dev.cryptopay.paymentlinks.paymentlink;

import static dev.cryptopay.service.db.SqlValues.instant;

import dev.cryptopay.service.request.Where;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Reads the transfers of all of a merchant's links: every query joins the link and filters by its merchant id and
 * mode, so no merchant or mode sees another's transfers.
 */
@Repository
class MerchantTransferRepository {

    private static final String FROM =
            " FROM link_transaction t JOIN payment_link l ON l.id = t.payment_link_id WHERE ";

    private final DatabaseClient database;

    MerchantTransferRepository(DatabaseClient database) {
        this.database = database;
    }

    Mono<Long> count(Where where) {
        GenericExecuteSpec spec = database.sql("SELECT count(*) AS total" + FROM + where.clause());
        return where.bind(spec).map(row -> row.get("total", Long.class)).one();
    }

    /** One page, newest first (the order of a link's own transfers, then the id, so pages never repeat a row). */
    Flux<MerchantTransfer> page(Where where, int limit, long offset) {
        GenericExecuteSpec spec = database.sql("SELECT t.id, t.tx_hash, t.log_index, t.network, t.token_contract, "
                + "t.asset, t.payer_address, t.crypto_amount, t.fiat_amount, t.refunded_amount, t.status, "
                + "t.confirmations, t.required_confirmations, t.late, t.counted_as_use, t.unexpected_asset, "
                + "t.created_at, t.updated_at, t.payment_link_id, l.payment_name" + FROM + where.clause()
                + " ORDER BY t.created_at DESC, t.log_index DESC, t.id DESC LIMIT :limit OFFSET :offset");
        return where.bind(spec)
                .bind("limit", limit)
                .bind("offset", offset)
                .map(row -> new MerchantTransfer(
                        PaymentLinkRepository.readTransaction(row),
                        row.get("payment_link_id", UUID.class),
                        row.get("payment_name", String.class),
                        instant(row.get("updated_at", OffsetDateTime.class))))
                .all();
    }

    /**
     * What the merchant's links received per currency, with {@link Summary}'s own SQL over the transfers
     * {@code where} selects; currencies in which nothing counts are left out.
     */
    Flux<ReceivedTotals.Currency> totals(Where where) {
        GenericExecuteSpec spec = database.sql("SELECT l.currency, " + Summary.CRYPTO_SQL + " AS crypto, "
                + "count(*) FILTER (WHERE " + Summary.COUNTED + ") AS counted, " + Summary.FIAT_SQL + " AS fiat, "
                + Summary.UNPRICED_SQL + " AS unpriced" + FROM + where.clause() + " GROUP BY l.currency "
                + "HAVING count(*) FILTER (WHERE " + Summary.COUNTED + ") > 0 ORDER BY l.currency");
        return where.bind(spec)
                .map(row -> new ReceivedTotals.Currency(
                        row.get("currency", String.class),
                        row.get("crypto", BigDecimal.class),
                        row.get("counted", Long.class),
                        row.get("fiat", BigDecimal.class),
                        row.get("unpriced", Long.class)))
                .all();
    }
}
