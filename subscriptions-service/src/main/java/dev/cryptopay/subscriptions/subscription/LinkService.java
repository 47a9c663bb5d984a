package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.request.PageRequest;
import dev.cryptopay.service.request.Where;
import dev.cryptopay.subscriptions.config.SubscriptionsProperties;
import dev.cryptopay.subscriptions.plan.PlanService;
import dev.cryptopay.subscriptions.plan.PlanView;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;

/** Reads subscription links with their subscriber, plan and payments. */
@Service
public class LinkService {

    private final LinkRepository links;
    private final SubscriberRepository subscribers;
    private final PlanService plans;
    private final SubscriptionsProperties properties;

    public LinkService(
            LinkRepository links,
            SubscriberRepository subscribers,
            PlanService plans,
            SubscriptionsProperties properties) {
        this.links = links;
        this.subscribers = subscribers;
        this.plans = plans;
        this.properties = properties;
    }

    /** One page of links and how many match in all. */
    public record LinkListing(List<LinkView> links, long total) {}

    public Mono<LinkListing> list(MerchantIdentity merchant, LinkQuery query) {
        Where where = Where.merchant(merchant, "l.")
                .equal("l.is_active", "active", query.active())
                .equal("l.plan_id", "plan", query.planId())
                .between("l.created_at", query.from(), query.to())
                .search(query.search(), "s.customer_name", "s.customer_email", "s.customer_id", "l.wallet_address");
        return listing(where, query.page());
    }

    public Mono<LinkView> get(MerchantIdentity merchant, UUID id) {
        return links.find(merchant, id)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Subscription link not found")))
                .flatMap(this::view);
    }

    /** The links a wallet approved (address in any letter case); anyone may ask for an address. */
    public Mono<LinkListing> ofWallet(String walletAddress, PageRequest page) {
        return listing(
                Where.publicRows().and("lower(l.wallet_address) = lower(:wallet)", Map.of("wallet", walletAddress)),
                page);
    }

    /** One link with its subscriber, plan and payments. */
    public Mono<LinkView> view(SubscriptionLink link) {
        return views(List.of(link)).map(list -> list.get(0));
    }

    private Mono<LinkListing> listing(Where where, PageRequest page) {
        return links.count(where)
                .zipWith(links.page(where, page.size(), page.offset())
                        .collectList()
                        .flatMap(this::views))
                .map(result -> new LinkListing(result.getT2(), result.getT1()));
    }

    private Mono<List<LinkView>> views(List<SubscriptionLink> page) {
        return Mono.zip(
                        subscribers.findAll(page.stream()
                                .map(SubscriptionLink::subscriberId)
                                .toList()),
                        plans.summaries(page.stream()
                                .map(SubscriptionLink::planId)
                                .distinct()
                                .toList()),
                        links.payments(page.stream().map(SubscriptionLink::id).toList()))
                .map(loaded -> page.stream()
                        .map(link -> {
                            PlanView plan = loaded.getT2().get(link.planId());
                            return new LinkView(
                                    link,
                                    loaded.getT1().get(link.subscriberId()),
                                    plan,
                                    loaded.getT3().getOrDefault(link.id(), List.of()),
                                    properties
                                            .contract(plan.network().chainId())
                                            .orElse(null));
                        })
                        .toList());
    }
}
