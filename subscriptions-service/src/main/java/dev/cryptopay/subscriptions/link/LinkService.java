package dev.cryptopay.subscriptions.link;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.request.PageRequest;
import dev.cryptopay.service.request.Where;
import dev.cryptopay.subscriptions.link.LinkResponse.PaymentResponse;
import dev.cryptopay.subscriptions.plan.PlanService;
import dev.cryptopay.subscriptions.plan.PlanSummary;
import dev.cryptopay.subscriptions.plan.PlanView;
import dev.cryptopay.subscriptions.subscriber.Subscriber;
import dev.cryptopay.subscriptions.subscriber.SubscriberRepository;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Reads subscription links with their customer, plan summary and payments. */
@Service
public class LinkService {

    private final LinkRepository links;
    private final SubscriberRepository subscribers;
    private final PlanService plans;
    private final JsonMapper json;

    public LinkService(LinkRepository links, SubscriberRepository subscribers, PlanService plans, JsonMapper json) {
        this.links = links;
        this.subscribers = subscribers;
        this.plans = plans;
        this.json = json;
    }

    /** One page of links and how many match in all. */
    public record LinkListing(List<LinkResponse> links, long total) {}

    public Mono<LinkListing> list(MerchantIdentity merchant, LinkQuery query) {
        Where where = Where.merchant(merchant, "l.")
                .equal("l.is_active", "active", query.active())
                .equal("l.plan_id", "plan", query.planId())
                .between("l.created_at", query.from(), query.to())
                .search(query.search(), "s.customer_name", "s.customer_email", "s.customer_id", "l.wallet_address");
        return links.count(where)
                .zipWith(links.page(where, query.page().size(), query.page().offset())
                        .collectList()
                        .flatMap(page -> responses(page, Audience.MERCHANT)))
                .map(result -> new LinkListing(result.getT2(), result.getT1()));
    }

    public Mono<LinkResponse> get(MerchantIdentity merchant, UUID id) {
        return links.find(merchant, id)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Subscription link not found")))
                .flatMap(link -> responses(List.of(link), Audience.MERCHANT))
                .map(list -> list.get(0));
    }

    /** The links of these subscribers as a subscriber response nests them (no payments, no plan summary). */
    public Mono<Map<UUID, LinkResponse>> nestedOfSubscribers(List<Subscriber> owners) {
        return links.ofSubscribers(owners.stream().map(Subscriber::id).toList())
                .map(bySubscriber -> owners.stream()
                        .filter(owner -> bySubscriber.containsKey(owner.id()))
                        .collect(java.util.stream.Collectors.toMap(
                                Subscriber::id,
                                owner -> LinkResponse.of(
                                        bySubscriber.get(owner.id()),
                                        approvals(bySubscriber.get(owner.id())),
                                        owner.merchantId(),
                                        owner.id(),
                                        owner.customerId(),
                                        owner.customerEmail(),
                                        owner.customerName(),
                                        null,
                                        null))));
    }

    /**
     * The links a wallet approved (address in any letter case), for the wallet itself: anyone may ask for an
     * address, so the customer's name, e-mail and id are left out.
     */
    public Mono<LinkListing> ofWallet(String walletAddress, PageRequest page) {
        Where where =
                Where.publicRows().and("lower(l.wallet_address) = lower(:wallet)", Map.of("wallet", walletAddress));
        return links.count(where)
                .zipWith(links.page(where, page.size(), page.offset())
                        .collectList()
                        .flatMap(found -> responses(found, Audience.WALLET)))
                .map(result -> new LinkListing(result.getT2(), result.getT1()));
    }

    /** One link with its customer's details, for the customer's own enrolment flow. */
    public Mono<LinkResponse> forCustomer(SubscriptionLink link) {
        return responses(List.of(link), Audience.CUSTOMER).map(list -> list.get(0));
    }

    /**
     * Who a link response is for: its merchant sees everything; the customer's own flow (reached with the
     * subscriber id) sees the customer's name and e-mail but no merchant account or merchant customer id; a wallet
     * lookup (anyone may ask for an address) sees neither.
     */
    enum Audience {
        MERCHANT,
        CUSTOMER,
        WALLET
    }

    private Mono<List<LinkResponse>> responses(List<SubscriptionLink> page, Audience audience) {
        List<UUID> ids = page.stream().map(SubscriptionLink::id).toList();
        return Mono.zip(
                        subscribers.findAll(page.stream()
                                .map(SubscriptionLink::subscriberId)
                                .toList()),
                        plans.summaries(page.stream()
                                .map(SubscriptionLink::planId)
                                .distinct()
                                .toList()),
                        links.payments(ids))
                .map(loaded -> page.stream()
                        .map(link -> response(
                                link,
                                audience,
                                loaded.getT1().get(link.subscriberId()),
                                loaded.getT2().get(link.planId()),
                                loaded.getT3().getOrDefault(link.id(), List.of())))
                        .toList());
    }

    private LinkResponse response(
            SubscriptionLink link,
            Audience audience,
            Subscriber subscriber,
            PlanView plan,
            List<SubscriptionPayment> payments) {
        PlanSummary summary = PlanSummary.of(plan);
        boolean merchant = audience == Audience.MERCHANT;
        boolean customer = audience != Audience.WALLET;
        return LinkResponse.of(
                link,
                approvals(link),
                merchant ? link.merchantId() : null,
                // The subscriber id opens the customer's own view: never shown to whoever looks up a wallet.
                customer ? link.subscriberId() : null,
                merchant ? subscriber.customerId() : null,
                customer ? subscriber.customerEmail() : null,
                customer ? subscriber.customerName() : null,
                payments.stream()
                        .map(payment -> PaymentResponse.of(payment, plan.token().currencyId(), summary, merchant))
                        .toList(),
                summary);
    }

    private JsonNode approvals(SubscriptionLink link) {
        return json.readTree(link.approvals());
    }
}
