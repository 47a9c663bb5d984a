package dev.cryptopay.paymentlinks.outgoing;

import static dev.cryptopay.service.db.SqlValues.instant;
import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.paymentlinks.transaction.TransactionStatus;
import dev.cryptopay.service.db.SqlValues;
import io.r2dbc.spi.Readable;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;

/** Stores transfers out of deposit addresses; (network, tx_hash, log_index) identifies one. */
@Repository
class OutgoingTransferRepository {

    private static final String COLUMNS = "id, payment_link_id, network, tx_hash, log_index, token_contract, asset, "
            + "from_address, to_address, crypto_amount, status, confirmations, required_confirmations, refund_id, "
            + "created_at, updated_at";

    private final DatabaseClient database;

    OutgoingTransferRepository(DatabaseClient database) {
        this.database = database;
    }

    /** Loads and row-locks the transfer (network, tx_hash, log_index); empty when it is not recorded. */
    Mono<OutgoingTransfer> lock(String network, String txHash, int logIndex) {
        return database.sql("SELECT " + COLUMNS + " FROM link_outgoing_transfer WHERE network = :network "
                        + "AND tx_hash = :txHash AND log_index = :logIndex FOR UPDATE")
                .bind("network", network)
                .bind("txHash", txHash)
                .bind("logIndex", logIndex)
                .map(OutgoingTransferRepository::read)
                .one();
    }

    Mono<Void> insert(OutgoingTransfer transfer) {
        GenericExecuteSpec spec = database.sql("INSERT INTO link_outgoing_transfer (" + COLUMNS + ") VALUES (:id, "
                        + ":link, :network, :txHash, :logIndex, :token, :asset, :from, :to, :amount, :status, "
                        + ":confirmations, :required, :refund, :createdAt, :updatedAt)")
                .bind("id", transfer.id())
                .bind("link", transfer.paymentLinkId())
                .bind("network", transfer.network())
                .bind("txHash", transfer.txHash())
                .bind("logIndex", transfer.logIndex())
                .bind("asset", transfer.asset())
                .bind("from", transfer.fromAddress())
                .bind("to", transfer.toAddress())
                .bind("amount", transfer.cryptoAmount())
                .bind("createdAt", utc(transfer.createdAt()));
        spec = SqlValues.bind(spec, "token", transfer.tokenContract(), String.class);
        return bindState(spec, transfer).then();
    }

    /** Writes what a report changes: status, counts, the refund it pays. */
    Mono<Void> update(OutgoingTransfer transfer) {
        GenericExecuteSpec spec = database.sql("UPDATE link_outgoing_transfer SET status = :status, "
                        + "confirmations = :confirmations, required_confirmations = :required, refund_id = :refund, "
                        + "updated_at = :updatedAt WHERE id = :id")
                .bind("id", transfer.id());
        return bindState(spec, transfer).then();
    }

    private static GenericExecuteSpec bindState(GenericExecuteSpec spec, OutgoingTransfer transfer) {
        spec = spec.bind("status", transfer.status().wireName())
                .bind("confirmations", transfer.confirmations())
                .bind("updatedAt", utc(transfer.updatedAt()));
        spec = SqlValues.bind(spec, "required", transfer.requiredConfirmations(), Integer.class);
        return SqlValues.bind(spec, "refund", transfer.refundId(), UUID.class);
    }

    private static OutgoingTransfer read(Readable row) {
        return new OutgoingTransfer(
                row.get("id", UUID.class),
                row.get("payment_link_id", UUID.class),
                row.get("network", String.class),
                row.get("tx_hash", String.class),
                row.get("log_index", Integer.class),
                row.get("token_contract", String.class),
                row.get("asset", String.class),
                row.get("from_address", String.class),
                row.get("to_address", String.class),
                row.get("crypto_amount", BigDecimal.class),
                TransactionStatus.fromWireName(row.get("status", String.class)),
                row.get("confirmations", Integer.class),
                row.get("required_confirmations", Integer.class),
                row.get("refund_id", UUID.class),
                instant(row.get("created_at", OffsetDateTime.class)),
                instant(row.get("updated_at", OffsetDateTime.class)));
    }
}
