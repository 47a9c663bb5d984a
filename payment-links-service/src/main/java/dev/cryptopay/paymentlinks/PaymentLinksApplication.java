package dev.cryptopay.paymentlinks;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class PaymentLinksApplication {

    public static void main(String[] args) {
        SpringApplication.run(PaymentLinksApplication.class, args);
    }
}
