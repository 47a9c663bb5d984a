package dev.cryptopay.bench.primitives;

import dev.cryptopay.paymentlinks.paymentlink.NewPaymentLink;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkRequestParser;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import tools.jackson.databind.json.JsonMapper;

/** payment-links-service reading a full create body: JSON parse plus every field's rules, cart and metadata included. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CreateBodyBenchmarks {

    /** Every field the create route takes, with a two-item cart and some metadata (about 1 KB). */
    static final String FULL_BODY = """
            {"payment_name":"Order 2026-000123","amount":59.80,"currency":"USDC",
             "description":"Two items from the spring catalogue","expires_at":"2030-01-01T00:00:00Z","max_uses":1,
             "customer_id":"cus_000123","customer_name":"Ada Lovelace","customer_email":"ada@example.com",
             "product_name":"Spring bundle","product_description":"Notebook and pen",
             "cart":{"items":[{"name":"Notebook","product_id":"nb-1","quantity":2,"unit_price":19.90,"total":39.80},
                              {"name":"Pen","product_id":"pen-7","quantity":1,"unit_price":10.00,"total":10.00}],
                     "subtotal":49.80,"shipping":5.00,"tax":5.00,"total":59.80},
             "order_id":"order-2026-000123","auto_fill":true,"success_url":"https://shop.example.com/thanks",
             "cancel_url":"https://shop.example.com/cart","webhook_metadata":{"shop":"spring","attempt":1},
             "checkout_mode":"hosted","origin":"https://shop.example.com"}
            """;

    static final Set<String> CURRENCIES = Set.of("USDC", "USDT", "ETH", "DAI");

    JsonMapper json;
    Instant now;

    @Setup
    public void setUp() {
        json = JsonMapper.builder().build();
        now = Instant.parse("2026-11-22T00:00:00Z");
    }

    @Benchmark
    public NewPaymentLink parseAndValidate() {
        return PaymentLinkRequestParser.parse(json, FULL_BODY, CURRENCIES, now);
    }
}
