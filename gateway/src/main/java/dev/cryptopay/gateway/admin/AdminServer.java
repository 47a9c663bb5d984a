package dev.cryptopay.gateway.admin;

import dev.cryptopay.service.error.ProblemExceptionHandler;
import dev.cryptopay.service.requestid.RequestIdFilter;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.web.reactive.function.server.HandlerStrategies;
import org.springframework.web.reactive.function.server.RouterFunctions;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * A second Reactor Netty server for the admin API, on its own address and port, so the admin routes exist only there
 * and never on the merchant port. Errors use the same problem body as the rest of the gateway.
 */
public class AdminServer implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(AdminServer.class);

    private final AdminProperties properties;
    private final HttpHandler handler;
    private final ReactorResourceFactory resources;
    private volatile DisposableServer server;

    public AdminServer(
            AdminProperties properties,
            AdminHandlers handlers,
            ProblemExceptionHandler problems,
            ReactorResourceFactory resources) {
        this.properties = properties;
        this.resources = resources;
        this.handler = RouterFunctions.toHttpHandler(
                handlers.routes(),
                HandlerStrategies.builder()
                        .webFilter(new RequestIdFilter())
                        .exceptionHandler(problems)
                        .build());
    }

    @Override
    public void start() {
        server = HttpServer.create()
                .host(properties.host())
                .port(properties.port())
                .runOn(resources.getLoopResources())
                .handle(new ReactorHttpHandlerAdapter(handler))
                .bindNow(Duration.ofSeconds(10));
        log.info("Admin API listening on {}:{}", properties.host(), server.port());
    }

    @Override
    public void stop() {
        DisposableServer running = server;
        if (running != null) {
            running.disposeNow(Duration.ofSeconds(5));
            server = null;
        }
    }

    @Override
    public boolean isRunning() {
        return server != null;
    }

    /** The bound port (useful when configured as 0). */
    public int port() {
        DisposableServer running = server;
        if (running == null) {
            throw new IllegalStateException("Admin server is not running");
        }
        return running.port();
    }
}
