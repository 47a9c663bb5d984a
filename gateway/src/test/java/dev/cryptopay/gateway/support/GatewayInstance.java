package dev.cryptopay.gateway.support;

import dev.cryptopay.gateway.GatewayApplication;
import dev.cryptopay.gateway.admin.AdminServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.web.reactive.server.WebTestClient;

/** A further, fully separate gateway (its own application context and ports), for tests of other configurations. */
public final class GatewayInstance implements AutoCloseable {

    private final ConfigurableApplicationContext context;

    private GatewayInstance(ConfigurableApplicationContext context) {
        this.context = context;
    }

    /** Starts with the shared test properties plus {@code overrides}, given as command-line arguments so they win. */
    public static GatewayInstance start(Map<String, String> overrides) {
        Map<String, String> properties = new LinkedHashMap<>(TestEnvironment.gatewayProperties());
        properties.put("server.port", "0");
        properties.putAll(overrides);
        List<String> args = new ArrayList<>();
        properties.forEach((name, value) -> args.add("--" + name + "=" + value));
        return new GatewayInstance(
                new SpringApplicationBuilder(GatewayApplication.class).run(args.toArray(String[]::new)));
    }

    public int port() {
        return Integer.parseInt(context.getEnvironment().getRequiredProperty("local.server.port"));
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    public WebTestClient client() {
        return WebTestClient.bindToServer()
                .baseUrl(baseUrl())
                .responseTimeout(Duration.ofSeconds(15))
                .build();
    }

    public AdminClient admin() {
        return new AdminClient(context.getBean(AdminServer.class).port());
    }

    public ConfigurableApplicationContext context() {
        return context;
    }

    @Override
    public void close() {
        context.close();
    }
}
