package dev.cryptopay.service.web;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import java.util.Map;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** A minimal service that uses the library the way real services do. */
@SpringBootApplication
public class TestServiceApplication {

    record Greeting(String name, int count) {}

    @RestController
    static class Routes {

        @GetMapping("/whoami")
        Map<String, String> whoami(MerchantIdentity merchant) {
            return Map.of(
                    "merchant_id",
                    merchant.merchantId().toString(),
                    "mode",
                    merchant.mode().wireName());
        }

        @PostMapping("/greetings")
        Greeting greet(MerchantIdentity merchant, @RequestBody Greeting greeting) {
            return greeting;
        }

        @PostMapping("/echo")
        Map<String, Object> echo(MerchantIdentity merchant, @RequestBody Map<String, Object> body) {
            return body;
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
