package dev.cryptopay.deploy;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** Waiting for start steps that run side by side, so that a step's {@link StackStartException} comes out as is. */
final class StartSteps {

    private StartSteps() {}

    /** Waits until every future succeeded, or until the first one fails (its exception comes out as is). */
    static void awaitAll(List<CompletableFuture<Void>> futures) {
        CompletableFuture<Void> outcome = new CompletableFuture<>();
        for (CompletableFuture<Void> future : futures) {
            future.whenComplete((ignored, failure) -> {
                if (failure != null) {
                    outcome.completeExceptionally(
                            failure instanceof CompletionException && failure.getCause() != null
                                    ? failure.getCause()
                                    : failure);
                }
            });
        }
        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).whenComplete((ignored, failure) -> {
            if (failure == null) {
                outcome.complete(null);
            }
        });
        join(outcome);
    }

    /** Waits for a start step; its {@link RuntimeException} or {@link Error} comes out unwrapped. */
    static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }
}
