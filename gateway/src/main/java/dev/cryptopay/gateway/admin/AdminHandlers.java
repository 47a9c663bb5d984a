package dev.cryptopay.gateway.admin;

import dev.cryptopay.gateway.admin.AdminResponses.AccessRequestBody;
import dev.cryptopay.gateway.admin.AdminResponses.AccessRequestList;
import dev.cryptopay.gateway.admin.AdminResponses.CreatedKeyBody;
import dev.cryptopay.gateway.admin.AdminResponses.KeyBody;
import dev.cryptopay.gateway.admin.AdminResponses.KeyList;
import dev.cryptopay.gateway.admin.AdminResponses.MerchantBody;
import dev.cryptopay.gateway.admin.AdminResponses.PublishableKeyBody;
import dev.cryptopay.gateway.production.AccessStatus;
import dev.cryptopay.gateway.production.ProductionAccess;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.request.ListQuery;
import dev.cryptopay.service.request.PageRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.HandlerFilterFunction;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The admin API's routes and handlers; every route requires {@code Authorization: Bearer <gateway.admin.token>}. */
public class AdminHandlers {

    private final MerchantAdmin admin;
    private final ProductionAccess productionAccess;
    private final JsonMapper json;
    private final byte[] tokenDigest;

    public AdminHandlers(MerchantAdmin admin, ProductionAccess productionAccess, JsonMapper json, String token) {
        this.admin = admin;
        this.productionAccess = productionAccess;
        this.json = json;
        this.tokenDigest = sha256("Bearer " + token.strip());
    }

    public RouterFunction<ServerResponse> routes() {
        return RouterFunctions.route()
                .POST("/admin/merchants", this::createMerchant)
                .POST("/admin/merchants/{id}/keys", this::createKey)
                .POST("/admin/merchants/{id}/publishable_keys", this::createPublishableKey)
                .GET("/admin/merchants/{id}/keys", this::listKeys)
                .DELETE("/admin/keys/{key}", this::revokeKey)
                .GET("/admin/production_access", this::listProductionAccess)
                .POST("/admin/production_access/{id}/approve", this::approveProductionAccess)
                .POST("/admin/production_access/{id}/reject", this::rejectProductionAccess)
                .filter(requireToken())
                .build();
    }

    /** Compares digests of the whole header, so the comparison takes the same time whatever the header's length. */
    private HandlerFilterFunction<ServerResponse, ServerResponse> requireToken() {
        return (request, next) -> {
            String header = request.headers().firstHeader(HttpHeaders.AUTHORIZATION);
            if (header == null || !MessageDigest.isEqual(tokenDigest, sha256(header.strip()))) {
                return Mono.error(ApiException.unauthorized(
                        "admin_unauthorized", "Missing or wrong admin token (Authorization: Bearer <token>)"));
            }
            return next.handle(request);
        };
    }

    private Mono<ServerResponse> createMerchant(ServerRequest request) {
        return body(request)
                .flatMap(body -> admin.createMerchant(text(body, "name"), text(body, "email")))
                .flatMap(merchant -> respond(HttpStatus.CREATED, MerchantBody.of(merchant)));
    }

    private Mono<ServerResponse> createKey(ServerRequest request) {
        return body(request)
                .flatMap(body -> admin.createKey(
                        request.pathVariable("id"),
                        text(body, "mode"),
                        text(body, "algorithm"),
                        text(body, "public_key")))
                .flatMap(created -> respond(HttpStatus.CREATED, CreatedKeyBody.of(created)));
    }

    private Mono<ServerResponse> createPublishableKey(ServerRequest request) {
        return body(request)
                .flatMap(body -> admin.createPublishableKey(request.pathVariable("id"), text(body, "mode")))
                .flatMap(created -> respond(HttpStatus.CREATED, PublishableKeyBody.of(created)));
    }

    /** API keys, then publishable keys: one query after the other, each read to the end. */
    private Mono<ServerResponse> listKeys(ServerRequest request) {
        String merchantId = request.pathVariable("id");
        return admin.listKeys(merchantId)
                .map(KeyBody::of)
                .collectList()
                .flatMap(keys -> admin.listPublishableKeys(merchantId)
                        .map(PublishableKeyBody::of)
                        .collectList()
                        .map(publishable -> new KeyList(keys, publishable)))
                .flatMap(list -> respond(HttpStatus.OK, list));
    }

    /** Revokes an API key or a publishable key, whichever the path names. */
    private Mono<ServerResponse> revokeKey(ServerRequest request) {
        return admin.revoke(request.pathVariable("key"))
                .then(ServerResponse.noContent().build());
    }

    /** Requests in one status ({@code pending} unless {@code status} says otherwise), oldest first, paged. */
    private Mono<ServerResponse> listProductionAccess(ServerRequest request) {
        ListQuery query = new ListQuery(request.queryParams());
        String status = query.oneOf("status", List.of("pending", "approved", "rejected"), "pending");
        PageRequest page = query.page("page_size", 50, 100);
        query.throwIfAny();
        return productionAccess
                .list(AccessStatus.fromWireName(status), page)
                .flatMap(listed -> respond(HttpStatus.OK, AccessRequestList.of(listed, page)));
    }

    private Mono<ServerResponse> approveProductionAccess(ServerRequest request) {
        return productionAccess
                .approve(request.pathVariable("id"))
                .flatMap(decided -> respond(HttpStatus.OK, AccessRequestBody.of(decided)));
    }

    /** An optional body {@code {"reason": "…"}}: what the merchant is told. */
    private Mono<ServerResponse> rejectProductionAccess(ServerRequest request) {
        return request.bodyToMono(byte[].class)
                .map(bytes -> Optional.ofNullable(bytes.length == 0 ? null : text(parse(bytes), "reason")))
                .defaultIfEmpty(Optional.empty())
                .flatMap(reason -> {
                    String text =
                            reason.map(String::strip).filter(r -> !r.isEmpty()).orElse(null);
                    if (text != null && text.length() > 1000) {
                        return Mono.error(ApiException.invalidField(
                                "validation_failed", "reason", "reason must be at most 1000 characters"));
                    }
                    return productionAccess.reject(request.pathVariable("id"), text);
                })
                .flatMap(decided -> respond(HttpStatus.OK, AccessRequestBody.of(decided)));
    }

    private Mono<JsonNode> body(ServerRequest request) {
        return request.bodyToMono(byte[].class).defaultIfEmpty(new byte[0]).map(bytes -> {
            if (bytes.length == 0) {
                throw ApiException.badRequest("invalid_request", "A JSON object body is required");
            }
            return parse(bytes);
        });
    }

    private JsonNode parse(byte[] bytes) {
        try {
            JsonNode node = json.readTree(bytes);
            if (node == null || !node.isObject()) {
                throw ApiException.badRequest("invalid_request", "The body must be a JSON object");
            }
            return node;
        } catch (JacksonException | NumberFormatException e) {
            throw ApiException.badRequest("invalid_request", "Malformed JSON body");
        }
    }

    private static String text(JsonNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isString()) {
            throw ApiException.invalidField("invalid_request", field, field + " must be a string");
        }
        return value.stringValue();
    }

    private Mono<ServerResponse> respond(HttpStatus status, Object body) {
        return ServerResponse.status(status)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(json.writeValueAsBytes(body));
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
