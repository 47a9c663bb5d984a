package dev.cryptopay.service.db;

import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.reactive.TransactionalOperator;
import org.springframework.transaction.support.DefaultTransactionDefinition;

/**
 * Runs a unit of work's statements on one pooled connection without opening a transaction: each statement commits by
 * itself, the connection is taken (and checked) once instead of once per statement, and there is no BEGIN or COMMIT
 * to wait for. Inside a surrounding transaction the work simply joins it. Callbacks registered for the commit (the
 * outbox relay's wake-up) run when the work completes.
 *
 * <p>For work whose statements leave nothing inconsistent when a later one fails; anything else keeps its transaction.
 */
public final class OneConnection {

    private OneConnection() {}

    /** The operator: {@code operator.transactional(work)}. */
    public static TransactionalOperator operator(ReactiveTransactionManager transactions) {
        return TransactionalOperator.create(
                transactions, new DefaultTransactionDefinition(TransactionDefinition.PROPAGATION_SUPPORTS));
    }
}
