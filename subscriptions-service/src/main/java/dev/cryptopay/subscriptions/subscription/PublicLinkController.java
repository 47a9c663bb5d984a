package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.auth.internal.MerchantCredential;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.identity.CurrentMerchant;
import dev.cryptopay.service.request.ListQuery;
import dev.cryptopay.service.request.PageRequest;
import dev.cryptopay.service.response.Pagination;
import dev.cryptopay.service.response.PathIds;
import dev.cryptopay.subscriptions.plan.Addresses;
import dev.cryptopay.subscriptions.plan.PlanSummary;
import dev.cryptopay.subscriptions.subscription.LinkResponse.Audience;
import dev.cryptopay.subscriptions.subscription.LinkResponse.PaymentResponse;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/** The customer's side of subscription links (public routes: no merchant identity). */
@RestController
class PublicLinkController {

    private final EnrolmentService enrolment;
    private final PaymentService payments;
    private final LinkUpdateService updates;
    private final LinkService links;
    private final JsonMapper json;
    private final Clock clock;

    PublicLinkController(
            EnrolmentService enrolment,
            PaymentService payments,
            LinkUpdateService updates,
            LinkService links,
            JsonMapper json,
            Clock clock) {
        this.updates = updates;
        this.enrolment = enrolment;
        this.payments = payments;
        this.links = links;
        this.json = json;
        this.clock = clock;
    }

    /** SubscriptionLinkListResponse of one wallet. */
    record WalletLinksResponse(List<LinkResponse> links, long total, int page, int pageSize, long totalPages) {}

    @PostMapping(
            path = {"/public/subscriptions/link", "/public/subscriptions/link/"},
            produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.CREATED)
    Mono<LinkResponse> enrol(@RequestBody(required = false) String body) {
        return Mono.fromSupplier(() -> EnrolmentRequest.parse(json, body, clock.instant()))
                .flatMap(enrolment::enrol)
                .map(view -> LinkResponse.of(view, Audience.CUSTOMER, json));
    }

    /**
     * Checks a merchant's report of a period's payment against what the chain showed (see {@link PaymentService}).
     * The gateway resolved {@code merchant_key} and forwards the merchant's identity: 200 with the payment the chain
     * recorded, 409 when the transaction holds no confirmed collection of the link. A caller that named the merchant
     * with its publishable key (public by design, so anyone may hold it) gets the payment without the merchant's
     * account id.
     */
    @PostMapping(path = "/public/subscriptions/link/payment", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<PaymentResponse>> recordPayment(
            MerchantIdentity merchant, ServerWebExchange exchange, @RequestBody(required = false) String body) {
        boolean showMerchant = CurrentMerchant.credential(exchange).orElse(MerchantCredential.PUBLISHABLE_KEY)
                != MerchantCredential.PUBLISHABLE_KEY;
        return Mono.fromSupplier(() -> PaymentRequest.parse(json, body))
                .flatMap(request -> payments.confirm(merchant, request))
                .map(recorded -> ResponseEntity.ok(PaymentResponse.of(
                        recorded.payment(),
                        recorded.plan().token().currencyId(),
                        PlanSummary.of(recorded.plan()),
                        showMerchant)));
    }

    /**
     * The customer's changes to its link (see {@link LinkUpdateService}), signed by the link's wallet (see
     * {@link WalletProof}).
     */
    @PutMapping(path = "/public/subscriptions/link/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<LinkResponse> update(
            @PathVariable String id,
            @RequestHeader(name = WalletProof.SIGNATURE_HEADER, required = false) String signature,
            @RequestHeader(name = WalletProof.TIMESTAMP_HEADER, required = false) String timestamp,
            @RequestHeader(name = WalletProof.NONCE_HEADER, required = false) String nonce,
            @RequestBody(required = false) String body) {
        return Mono.fromSupplier(() -> PathIds.uuid(id, "subscription link"))
                .flatMap(linkId -> updates.byCustomer(
                        linkId,
                        LinkUpdate.parse(json, body, clock.instant()),
                        new WalletProof(signature, timestamp, nonce, "/public/subscriptions/link/" + id, body)))
                .map(view -> LinkResponse.of(view, Audience.CUSTOMER, json));
    }

    @GetMapping("/public/subscriptions/link/{walletAddress}")
    Mono<WalletLinksResponse> ofWallet(
            @PathVariable String walletAddress, @RequestParam MultiValueMap<String, String> params) {
        return Mono.fromSupplier(() -> {
                    if (!Addresses.isValid(walletAddress.toLowerCase(Locale.ROOT))) {
                        throw ApiException.invalidField(
                                "validation_failed", "wallet_address", "wallet_address " + Addresses.RULE);
                    }
                    ListQuery query = new ListQuery(params);
                    PageRequest page = query.page("page_size", LinkQuery.DEFAULT_PAGE_SIZE, LinkQuery.MAX_PAGE_SIZE);
                    query.throwIfAny();
                    return page;
                })
                .flatMap(page -> links.ofWallet(walletAddress, page)
                        .map(listing -> new WalletLinksResponse(
                                listing.links().stream()
                                        .map(view -> LinkResponse.of(view, Audience.WALLET, json))
                                        .toList(),
                                listing.total(),
                                page.page(),
                                page.size(),
                                Pagination.of(page, listing.total()).totalPages())));
    }
}
