package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.cryptopay.testsupport.LoopbackHttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The balancer in front of a service's instances, with real sockets and the JDK's HTTP server as instances. */
class ServiceBalancerTest {

    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<HttpServer> instances = new ArrayList<>();
    private ServiceBalancer balancer;
    private int port;

    @AfterEach
    void stop() {
        if (balancer != null) {
            balancer.close();
        }
        instances.forEach(instance -> instance.stop(0));
        executor.shutdownNow();
    }

    @Test
    void newConnectionsGoToTheInstancesInTurn() throws Exception {
        start(List.of(instance("one"), instance("two")));

        List<String> answers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            answers.add(getOnANewConnection());
        }

        assertThat(answers).containsExactlyInAnyOrder("one", "two", "one", "two");
        assertThat(answers.get(0)).isNotEqualTo(answers.get(1));
    }

    @Test
    void anInstanceThatRefusesIsPassedOver() throws Exception {
        int killed = freePort(); // nothing listens there: as a killed instance's port
        start(List.of(killed, instance("alive")));

        for (int i = 0; i < 4; i++) {
            assertThat(getOnANewConnection()).isEqualTo("alive");
        }
    }

    @Test
    void aConnectionToAnInstanceThatDiesIsClosedAndTheNextGoesToTheOther() throws Exception {
        try (ServerSocket dying = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            start(List.of(dying.getLocalPort(), instance("alive")));
            try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port)) {
                Socket accepted = dying.accept(); // the balancer's connection to the first instance
                accepted.close(); // the instance dies with the connection open

                client.setSoTimeout(5000);
                InputStream in = client.getInputStream();
                assertThat(in.read())
                        .as("the client's connection ends with the instance's")
                        .isEqualTo(-1);
            }
            dying.close();
            assertThat(getOnANewConnection()).isEqualTo("alive");
        }
    }

    @Test
    void withNoInstanceListeningAConnectionIsClosedAtOnce() throws Exception {
        start(List.of(freePort(), freePort()));

        try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port)) {
            client.setSoTimeout(5000);
            assertThat(client.getInputStream().read()).isEqualTo(-1);
        }
    }

    @Test
    void closingStopsListeningAndEndsOpenConnections() throws Exception {
        start(List.of(instance("one")));
        try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port)) {
            client.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            client.setSoTimeout(5000);
            assertThat(client.getInputStream().read()).as("an answer begins").isPositive();

            balancer.close();

            assertThat(client.getInputStream().readAllBytes()).isNotNull(); // ends instead of blocking
        }
        assertThat(ServiceProcess.awaitUp("http://127.0.0.1:" + port + "/", Duration.ofMillis(300), () -> false, null))
                .isEqualTo("connection refused");
    }

    private void start(List<Integer> instancePorts) throws IOException {
        port = freePort();
        balancer = ServiceBalancer.start("test service", port, instancePorts, executor);
    }

    /** An instance answering every request with its name. */
    private int instance(String name) {
        HttpServer server = LoopbackHttpServer.create();
        server.createContext("/", exchange -> {
            byte[] body = name.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        instances.add(server);
        return server.getAddress().getPort();
    }

    /** A GET on a connection of its own (HTTP/1.0: closed after the answer); the answer's body. */
    private String getOnANewConnection() throws IOException {
        try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port)) {
            client.setSoTimeout(5000);
            client.getOutputStream().write("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String answer = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(answer).startsWith("HTTP/1.1 200");
            return answer.substring(answer.indexOf("\r\n\r\n") + 4);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
