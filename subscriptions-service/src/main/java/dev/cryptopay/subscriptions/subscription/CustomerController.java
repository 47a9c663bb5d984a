package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.service.request.ListQuery;
import dev.cryptopay.service.response.PathIds;
import dev.cryptopay.subscriptions.plan.Addresses;
import dev.cryptopay.subscriptions.subscription.CustomerResponses.CustomerSubscriber;
import dev.cryptopay.subscriptions.subscription.CustomerResponses.Preparation;
import java.util.Locale;
import java.util.UUID;
import org.springframework.http.MediaType;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/** The customer's routes of a subscriber (public: the subscriber id from the invitation link is the key). */
@RestController
class CustomerController {

    /** How many periods the approval covers unless the wallet asks for another number. */
    static final int DEFAULT_PERIODS = 12;

    static final int MAX_PERIODS = 120;

    private final CustomerService service;
    private final JsonMapper json;

    CustomerController(CustomerService service, JsonMapper json) {
        this.service = service;
        this.json = json;
    }

    /**
     * {@code ?subscriber_id=<uuid>&wallet_address=<0x…>[&periods=1..120]} for an invitation, or
     * {@code ?subscription_plan_id=<uuid>&wallet_address=…} for a self-service sign-up: exactly one of the two ids.
     */
    record PrepareQuery(UUID subscriberId, UUID planId, String walletAddress, int periods) {

        static PrepareQuery parse(MultiValueMap<String, String> params) {
            ListQuery query = new ListQuery(params);
            String id = params.getFirst("subscriber_id");
            UUID subscriberId = query.uuid("subscriber_id", id);
            String plan = params.getFirst("subscription_plan_id");
            UUID planId = query.uuid("subscription_plan_id", plan);
            if ((id == null) == (plan == null)) {
                query.violations()
                        .reject(
                                "subscriber_id",
                                "exactly one of subscriber_id (an invitation) and subscription_plan_id (a self-service"
                                        + " sign-up) is required");
            }
            String wallet = params.getFirst("wallet_address");
            if (wallet == null) {
                query.violations().reject("wallet_address", "wallet_address is required");
            } else if (!Addresses.isValid(wallet.toLowerCase(Locale.ROOT))) {
                query.violations().reject("wallet_address", "wallet_address " + Addresses.RULE);
            }
            int periods = query.integer("periods", DEFAULT_PERIODS, 1, MAX_PERIODS);
            query.throwIfAny();
            return new PrepareQuery(subscriberId, planId, Addresses.checksummed(wallet), periods);
        }
    }

    /**
     * The wallet's enrolment kit for an invited subscriber, or for a new self-service subscriber of the plan (each
     * such call makes one: its id, in the answer and in the kit's {@code ref}, is what the enrolment then names).
     */
    @GetMapping("/public/subscriber/prepare")
    Mono<Preparation> prepare(@RequestParam MultiValueMap<String, String> params) {
        return Mono.fromSupplier(() -> PrepareQuery.parse(params))
                .flatMap(query -> query.subscriberId() != null
                        ? service.prepare(query.subscriberId(), query.walletAddress(), query.periods())
                        : service.prepareSignUp(query.planId(), query.walletAddress(), query.periods()))
                .map(Preparation::of);
    }

    @GetMapping("/public/subscriber/{id}")
    Mono<CustomerSubscriber> get(@PathVariable String id) {
        return Mono.fromSupplier(() -> PathIds.uuid(id, "subscriber"))
                .flatMap(service::get)
                .map(view -> CustomerSubscriber.of(view, json));
    }

    @PutMapping(path = "/public/subscriber/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<CustomerSubscriber> update(
            @PathVariable String id,
            @RequestHeader(name = WalletProof.SIGNATURE_HEADER, required = false) String signature,
            @RequestHeader(name = WalletProof.TIMESTAMP_HEADER, required = false) String timestamp,
            @RequestHeader(name = WalletProof.NONCE_HEADER, required = false) String nonce,
            @RequestBody(required = false) String body) {
        return Mono.fromSupplier(() -> PathIds.uuid(id, "subscriber"))
                .flatMap(subscriberId -> service.update(
                        subscriberId,
                        SubscriberRequest.Update.parse(json, body),
                        new WalletProof(signature, timestamp, nonce, "/public/subscriber/" + id, body)))
                .map(view -> CustomerSubscriber.of(view, json));
    }
}
