package dev.cryptopay.service.web;

import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.auth.internal.MerchantCredential;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.identity.AllowedCallers;
import dev.cryptopay.service.identity.CurrentMerchant;
import java.time.Duration;
import java.util.Map;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;

/** A minimal service that uses the library the way real services do. */
@SpringBootApplication
public class TestServiceApplication {

    record Greeting(String name, int count) {}

    @RestController
    static class Routes {

        @GetMapping("/whoami")
        Map<String, String> whoami(MerchantIdentity merchant, ServerWebExchange exchange) {
            return Map.of(
                    "merchant_id",
                    merchant.merchantId().toString(),
                    "mode",
                    merchant.mode().wireName(),
                    "credential",
                    CurrentMerchant.credential(exchange)
                            .map(MerchantCredential::wireName)
                            .orElse("none"));
        }

        @PostMapping("/greetings")
        Greeting greet(MerchantIdentity merchant, @RequestBody Greeting greeting) {
            return greeting;
        }

        @PostMapping("/echo")
        Map<String, Object> echo(MerchantIdentity merchant, @RequestBody Map<String, Object> body) {
            return body;
        }

        /** A route for one other caller, as the transactions route of payment-links-service. */
        @AllowedCallers(InternalCallers.CHAIN_WATCHER)
        @PostMapping("/internal/reports")
        Map<String, Object> report(@RequestBody Map<String, Object> body) {
            return body;
        }

        @AllowedCallers({InternalCallers.GATEWAY, InternalCallers.CHAIN_WATCHER})
        @GetMapping("/shared")
        Map<String, String> shared() {
            return Map.of("shared", "yes");
        }

        /** An event stream: the request has no body, the response never ends. */
        @GetMapping(value = "/ticks", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
        Flux<String> ticks(MerchantIdentity merchant) {
            return Flux.interval(Duration.ofMillis(100)).map(tick -> "tick " + tick);
        }

        @GetMapping("/conflict")
        String conflict() {
            throw ApiException.conflict("duplicate_order_id", "order_id already used");
        }

        @GetMapping("/boom")
        String boom() {
            throw new IllegalStateException("secret internals: password=hunter2");
        }
    }
}
