package dev.cryptopay.chainwatcher;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class ChainWatcherApplication {

    public static void main(String[] args) {
        SpringApplication.run(ChainWatcherApplication.class, args);
    }
}
