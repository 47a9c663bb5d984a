package dev.cryptopay.client;

import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The generated invokers of each part of the API, set up alike: sending through a {@link Transport}, at a base
 * address, with a timeout per attempt and error answers thrown as {@link CryptoPayException}. The generator writes
 * one invoker class per part; each is subclassed here only to hand out the transport.
 */
final class Parts {

    private final Duration timeout;
    private final Consumer<HttpResponse<InputStream>> errors;

    Parts(Duration timeout, Consumer<HttpResponse<InputStream>> errors) {
        this.timeout = timeout;
        this.errors = errors;
    }

    dev.cryptopay.client.paymentlinks.invoker.ApiClient paymentLinks(HttpClient transport, String base) {
        var client = new dev.cryptopay.client.paymentlinks.invoker.ApiClient() {
            @Override
            public HttpClient getHttpClient() {
                return transport;
            }
        };
        client.updateBaseUri(base);
        client.setReadTimeout(timeout);
        client.setResponseInterceptor(errors);
        return client;
    }

    dev.cryptopay.client.subscriptions.invoker.ApiClient subscriptions(HttpClient transport, String base) {
        var client = new dev.cryptopay.client.subscriptions.invoker.ApiClient() {
            @Override
            public HttpClient getHttpClient() {
                return transport;
            }
        };
        client.updateBaseUri(base);
        client.setReadTimeout(timeout);
        client.setResponseInterceptor(errors);
        return client;
    }

    dev.cryptopay.client.webhooks.invoker.ApiClient webhooks(HttpClient transport, String base) {
        var client = new dev.cryptopay.client.webhooks.invoker.ApiClient() {
            @Override
            public HttpClient getHttpClient() {
                return transport;
            }
        };
        client.updateBaseUri(base);
        client.setReadTimeout(timeout);
        client.setResponseInterceptor(errors);
        return client;
    }

    dev.cryptopay.client.account.invoker.ApiClient account(HttpClient transport, String base) {
        var client = new dev.cryptopay.client.account.invoker.ApiClient() {
            @Override
            public HttpClient getHttpClient() {
                return transport;
            }
        };
        client.updateBaseUri(base);
        client.setReadTimeout(timeout);
        client.setResponseInterceptor(errors);
        return client;
    }
}
