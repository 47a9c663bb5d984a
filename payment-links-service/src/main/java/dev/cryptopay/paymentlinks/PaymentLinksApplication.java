package dev.cryptopay.paymentlinks;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class PaymentLinksApplication {

    public static void main(String[] args) {
        SpringApplication.run(PaymentLinksApplication.class, args);
    }
}
