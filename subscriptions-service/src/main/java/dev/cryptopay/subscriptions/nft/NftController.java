package dev.cryptopay.subscriptions.nft;

import dev.cryptopay.service.response.PathIds;
import dev.cryptopay.subscriptions.config.SubscriptionsProperties;
import dev.cryptopay.subscriptions.plan.PlanService;
import dev.cryptopay.subscriptions.plan.PlanView;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * The metadata of a plan's subscription NFT (SubscriptionMetaResponse, the JSON a wallet or marketplace reads) and
 * the SVG image it names. Public: the terms shown are the plan's public, signed terms.
 */
@RestController
class NftController {

    private final PlanService plans;
    private final SubscriptionsProperties properties;

    NftController(PlanService plans, SubscriptionsProperties properties) {
        this.plans = plans;
        this.properties = properties;
    }

    /** SubscriptionMetaResponse. */
    record NftMetadata(String name, String description, String image, String externalUrl, List<Attribute> attributes) {}

    /** One trait of the token. */
    record Attribute(String traitType, String value) {}

    @GetMapping("/public/subscriptions/nft/{planId}")
    Mono<NftMetadata> metadata(@PathVariable String planId) {
        return plan(planId).map(view -> {
            SubscriptionCard card = SubscriptionCard.of(view);
            UUID id = view.plan().id();
            return new NftMetadata(
                    view.plan().name(),
                    view.plan().description() != null ? view.plan().description() : card.summary(),
                    properties.publicUrl("/public/subscriptions/nft/" + id + "/image.svg"),
                    properties.publicUrl("/public/subscriptions/plans/" + id),
                    List.of(
                            new Attribute("Amount", card.amount()),
                            new Attribute("Token", view.token().currencyCode()),
                            new Attribute("Token address", view.token().contractAddress()),
                            new Attribute("Interval", card.interval()),
                            new Attribute("Trial", card.trial()),
                            new Attribute("Network", view.network().name()),
                            new Attribute(
                                    "Chain ID", Long.toString(view.network().chainId())),
                            new Attribute("Status", view.plan().status().wireName())));
        });
    }

    /** The token's image, drawn from the plan's terms; the text in it is escaped, and nothing in it runs. */
    @GetMapping(path = "/public/subscriptions/nft/{planId}/image.svg", produces = "image/svg+xml")
    Mono<ResponseEntity<String>> image(@PathVariable String planId) {
        return plan(planId)
                .map(view -> ResponseEntity.ok()
                        .contentType(MediaType.parseMediaType("image/svg+xml"))
                        .header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
                        .header("X-Content-Type-Options", "nosniff")
                        .header(
                                HttpHeaders.CACHE_CONTROL,
                                CacheControl.maxAge(Duration.ofMinutes(5))
                                        .cachePublic()
                                        .getHeaderValue())
                        .body(SubscriptionCard.of(view).svg()));
    }

    private Mono<PlanView> plan(String planId) {
        return Mono.fromSupplier(() -> PathIds.uuid(planId, "subscription plan"))
                .flatMap(plans::publicGet);
    }
}
