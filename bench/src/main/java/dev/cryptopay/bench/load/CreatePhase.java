package dev.cryptopay.bench.load;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * The creates of one phase, spread over the merchants in turn, each with order id {@code <prefix>-<index>} so the
 * sink can time its webhook from when it was sent.
 */
final class CreatePhase implements Supplier<HttpLoad.Request> {

    final WebhookSink.Phase phase;
    private final List<BenchMerchant.Signed> signed = new ArrayList<>();
    private final long[] sentAt;
    private final AtomicIntegerArray statuses;
    private final AtomicInteger next = new AtomicInteger();

    CreatePhase(WebhookSink sink, List<BenchMerchant> merchants, String prefix, int count) {
        int perMerchant = count / merchants.size() + 1;
        this.sentAt = new long[perMerchant * merchants.size()];
        Arrays.fill(sentAt, WebhookSink.NOT_SENT);
        this.statuses = new AtomicIntegerArray(sentAt.length);
        this.phase = sink.phase(prefix, index -> sentAt[index]);
        int m = 0;
        for (BenchMerchant merchant : merchants) {
            int offset = m++;
            int stride = merchants.size();
            signed.add(merchant.signed(
                    "POST", "/payment_links", index -> body(prefix, index * stride + offset), perMerchant));
        }
    }

    private static byte[] body(String prefix, int index) {
        return ("{\"payment_name\":\"Bench\",\"amount\":10,\"currency\":\"USDC\",\"order_id\":\"" + prefix + "-" + index
                        + "\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public HttpLoad.Request get() {
        int index = next.getAndIncrement();
        if (index >= sentAt.length) {
            throw new IllegalStateException("more than " + sentAt.length + " creates: raise --presign-rate");
        }
        sentAt[index] = System.nanoTime();
        return signed.get(index % signed.size())
                .get(index / signed.size())
                .whenAnswered(status -> statuses.set(index, status));
    }

    long created() {
        return IntStream.range(0, statuses.length())
                .filter(index -> statuses.get(index) == 201)
                .count();
    }

    long lost() {
        return IntStream.range(0, Math.min(next.get(), statuses.length()))
                .filter(index -> statuses.get(index) == 201 && !phase.deliveredIndexes.containsKey(index))
                .count();
    }

    /** Waits until every create answered 201 has its webhook, or nothing arrived for {@code quiet}. */
    void awaitDelivered(Duration quiet) {
        long lastCount = -1;
        long lastProgress = System.nanoTime();
        while (lost() > 0 && System.nanoTime() - lastProgress < quiet.toNanos()) {
            long count = phase.delivered.get();
            if (count != lastCount) {
                lastCount = count;
                lastProgress = System.nanoTime();
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
