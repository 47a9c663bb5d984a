package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.events.NextPayment;
import dev.cryptopay.service.events.Notify;
import dev.cryptopay.service.outbox.DomainEvent;
import dev.cryptopay.service.outbox.OutboxWriter;
import dev.cryptopay.subscriptions.config.SubscriptionsProperties;
import dev.cryptopay.subscriptions.merchant.MerchantNames;
import dev.cryptopay.subscriptions.plan.PlanView;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Writes subscription events to the outbox, in the transaction of the change that causes them. */
@Component
public class SubscriberEvents {

    static final String AGGREGATE_TYPE = "subscriber";

    private final OutboxWriter outbox;
    private final SubscriptionsProperties properties;
    private final MerchantNames merchantNames;
    private final JsonMapper json;

    public SubscriberEvents(
            OutboxWriter outbox, SubscriptionsProperties properties, MerchantNames merchantNames, JsonMapper json) {
        this.outbox = outbox;
        this.properties = properties;
        this.merchantNames = merchantNames;
        this.json = json;
    }

    /**
     * The {@code data} of a subscription event.
     *
     * @param subscriptionLinkId null until the customer enrolled
     * @param amount what one period bills, in the token's base units
     * @param currency the currency code of the plan's token
     * @param txHash the transaction of the event, null when there is none
     * @param periods how many periods a {@code subscription.payment.failed} counts as missed (null otherwise)
     * @param collectedAfterStop true on a {@code subscription.payment.success} someone collected while the link was
     *     stopped, false on every other event
     * @param reason why a {@code subscription.payment.failed} failed: {@code missed} or {@code reorganised}; null on
     *     every other event
     * @param metadata the subscriber's webhook_metadata, {@code {}} when it has none
     */
    record SubscriptionEventData(
            UUID subscriptionLinkId,
            UUID planId,
            UUID subscriberId,
            String status,
            String amount,
            String currency,
            String txHash,
            Long periods,
            boolean collectedAfterStop,
            String reason,
            JsonNode metadata) {}

    /** An event without a transaction; {@code amount} is what one period bills. */
    public Mono<Void> append(EventType type, Subscriber subscriber, PlanView plan, SubscriptionLink link, Instant now) {
        return append(type, subscriber, plan, link, SubscriptionChanges.Payment.period(plan), now);
    }

    /**
     * An event about an amount (a payment, missed periods): {@code payment} says which.
     *
     * @param link the subscriber's subscription link as it is after the change; null before the customer enrolled
     */
    public Mono<Void> append(
            EventType type,
            Subscriber subscriber,
            PlanView plan,
            SubscriptionLink link,
            SubscriptionChanges.Payment payment,
            Instant now) {
        SubscriptionEventData data = new SubscriptionEventData(
                link == null ? null : link.id(),
                subscriber.planId(),
                subscriber.id(),
                subscriber.status().wireName(),
                payment.amount().toString(),
                plan.token().currencyCode(),
                payment.txHash(),
                payment.periods(),
                payment.collectedAfterStop(),
                type == EventType.SUBSCRIPTION_PAYMENT_FAILED ? payment.failure() : null,
                subscriber.webhookMetadata() == null
                        ? json.createObjectNode()
                        : json.readTree(subscriber.webhookMetadata()));
        DomainEvent event = DomainEvent.of(
                type,
                now,
                subscriber.merchantId(),
                subscriber.mode(),
                AGGREGATE_TYPE,
                subscriber.id().toString(),
                data);
        return notify(subscriber, plan, payment.amount())
                .map(notify -> notify.withNextPayment(nextPayment(subscriber, plan, link)))
                .map(event::withNotify)
                .defaultIfEmpty(event)
                .flatMap(withNotify -> outbox.append(properties.topic(), withNotify));
    }

    /** Whether the subscriber can be e-mailed: its events name it to notification-service only then. */
    public static boolean hasAddress(Subscriber subscriber) {
        return subscriber.customerEmail() != null && !subscriber.customerEmail().isBlank();
    }

    /**
     * The internal {@code subscriber.invited} of a new subscriber with an e-mail address, for the invitation e-mail
     * (nothing without an address: there is no one to write to). Its data names the subscriber, the plan and the
     * amount of one period, as the subscriber's other events do.
     */
    public Mono<Void> invited(Subscriber subscriber, PlanView plan, Instant now) {
        if (!hasAddress(subscriber)) {
            return Mono.empty();
        }
        return append(EventType.SUBSCRIBER_INVITED, subscriber, plan, (SubscriptionLink) null, now);
    }

    /**
     * The next pull of an active subscription whose contract is known here: what a reminder before it needs. Null for
     * a subscriber that is not active, a stopped link, one without a due period, or a chain without the contract.
     */
    private NextPayment nextPayment(Subscriber subscriber, PlanView plan, SubscriptionLink link) {
        if (link == null
                || !link.active()
                || link.periodDueAt() == null
                || link.walletAddress() == null
                || subscriber.status() != SubscriberStatus.ACTIVE) {
            return null;
        }
        long chainId = plan.network().chainId();
        return properties
                .contract(chainId)
                .map(contract -> new NextPayment(
                        link.periodDueAt(),
                        plan.token().format(plan.plan().billedAmount()),
                        plan.plan().billedAmount().toString(),
                        plan.token().decimals(),
                        link.walletAddress(),
                        chainId,
                        plan.token().contractAddress(),
                        contract))
                .orElse(null);
    }

    /**
     * The customer's address and name, the merchant's name, the subscribe page, the plan's terms and the event's amount
     * in token units; empty when there is no address.
     */
    private Mono<Notify> notify(Subscriber subscriber, PlanView plan, BigInteger amount) {
        if (!hasAddress(subscriber)) {
            return Mono.empty();
        }
        return merchantNames
                .of(subscriber.merchantId())
                .map(Optional::of)
                .defaultIfEmpty(Optional.empty())
                .map(name -> Notify.customer(subscriber.customerEmail(), subscriber.customerName(), name.orElse(null))
                        .withSubscription(
                                properties.subscriptionLinkUrl(subscriber.id()),
                                plan.plan().name(),
                                plan.token().format(amount),
                                plan.plan().terms().interval(),
                                plan.network().name(),
                                plan.plan().terms().autoCancelAfterMissed()));
    }
}
