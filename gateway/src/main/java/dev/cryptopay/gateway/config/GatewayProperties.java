package dev.cryptopay.gateway.config;

import jakarta.validation.constraints.NotNull;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Settings that concern every request the merchant port accepts.
 *
 * @param trustedProxies IPs or CIDR ranges (e.g. {@code 10.0.0.0/8}) of reverse proxies in front of the gateway;
 *                       {@code X-Forwarded-For} is believed only when the direct peer is one of them. Default: none,
 *                       so the TCP peer address is the client address.
 * @param maxBodySize    largest request body accepted; larger bodies are refused with 413 before they reach a
 *                       service. Default 1 MiB.
 */
@Validated
@ConfigurationProperties("gateway")
public record GatewayProperties(
        @NotNull List<String> trustedProxies, @NotNull DataSize maxBodySize) {

    public GatewayProperties {
        trustedProxies = trustedProxies == null ? List.of() : List.copyOf(trustedProxies);
        maxBodySize = maxBodySize == null ? DataSize.ofMegabytes(1) : maxBodySize;
        if (maxBodySize.toBytes() <= 0 || maxBodySize.toBytes() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("gateway.max-body-size must be between 1 byte and 2 GiB");
        }
    }
}
