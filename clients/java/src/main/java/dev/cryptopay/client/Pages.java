package dev.cryptopay.client;

import dev.cryptopay.client.account.model.AccountApiKey;
import dev.cryptopay.client.account.model.AccountKeyPage;
import dev.cryptopay.client.paymentlinks.model.PaymentLink;
import dev.cryptopay.client.paymentlinks.model.PaymentLinkPage;
import dev.cryptopay.client.subscriptions.model.InvitationList;
import dev.cryptopay.client.subscriptions.model.LinkList;
import dev.cryptopay.client.subscriptions.model.Plan;
import dev.cryptopay.client.subscriptions.model.PlanList;
import dev.cryptopay.client.subscriptions.model.PublicPlan;
import dev.cryptopay.client.subscriptions.model.PublicPlanList;
import dev.cryptopay.client.subscriptions.model.Subscriber;
import dev.cryptopay.client.subscriptions.model.SubscriberList;
import dev.cryptopay.client.subscriptions.model.SubscriptionLink;
import dev.cryptopay.client.webhooks.model.Delivery;
import dev.cryptopay.client.webhooks.model.DeliveryListResponse;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Walks every item of a paged list, reading one page at a time as the stream or iterator is consumed:
 *
 * <pre>{@code
 * Pages.stream(page -> client.paymentLinks().listPaymentLinks(page, 100, null, true, null, null, null, null, null,
 *         null, null, null), Pages.PAYMENT_LINKS)
 *     .forEach(link -> System.out.println(link.getId()));
 * }</pre>
 *
 * <p>A list that changes while it is walked (newest first) can repeat or skip an item at a page boundary; filter on
 * creation dates for an exact export.
 */
public final class Pages {

    /** Reads page {@code page} (from 1). */
    @FunctionalInterface
    public interface PageReader<P> {
        P read(int page) throws Exception;
    }

    /** Where a page's items are and whether another page follows. */
    public record Shape<P, T>(Function<P, List<T>> items, Predicate<P> hasNext) {}

    public static final Shape<PaymentLinkPage, PaymentLink> PAYMENT_LINKS = new Shape<>(
            page -> page.getData().getData(),
            page -> Boolean.TRUE.equals(page.getData().getPagination().getHasNextPage()));
    public static final Shape<PlanList, Plan> PLANS =
            new Shape<>(PlanList::getPlans, page -> page.getPage() < page.getTotalPages());
    public static final Shape<SubscriberList, Subscriber> SUBSCRIBERS =
            new Shape<>(SubscriberList::getSubscribers, page -> page.getPage() < page.getTotalPages());
    public static final Shape<InvitationList, Subscriber> INVITATIONS =
            new Shape<>(InvitationList::getInvitations, page -> page.getPage() < page.getTotalPages());
    public static final Shape<LinkList, SubscriptionLink> SUBSCRIPTION_LINKS =
            new Shape<>(LinkList::getLinks, page -> page.getPage() < page.getTotalPages());
    public static final Shape<PublicPlanList, PublicPlan> PUBLIC_PLANS =
            new Shape<>(PublicPlanList::getPlans, page -> page.getPage() < page.getTotalPages());
    /** The API keys of the calling key's mode ({@code listAccountKeys}); each page repeats the publishable keys. */
    public static final Shape<AccountKeyPage, AccountApiKey> ACCOUNT_KEYS =
            new Shape<>(AccountKeyPage::getKeys, page -> page.getPage() < page.getTotalPages());

    public static final Shape<DeliveryListResponse, Delivery> DELIVERIES = new Shape<>(
            page -> page.getData().getData(),
            page -> Boolean.TRUE.equals(page.getData().getPagination().getHasNextPage()));

    private Pages() {}

    /** Every item of every page, read lazily. A failed read is thrown from the stream as it is consumed. */
    public static <P, T> Stream<T> stream(PageReader<P> reader, Shape<P, T> shape) {
        return StreamSupport.stream(
                Spliterators.spliteratorUnknownSize(iterator(reader, shape), Spliterator.ORDERED), false);
    }

    /** Every item of every page, read lazily. */
    public static <P, T> Iterator<T> iterator(PageReader<P> reader, Shape<P, T> shape) {
        return new Iterator<>() {
            private int nextPage = 1;
            private boolean more = true;
            private Iterator<T> current = List.<T>of().iterator();

            @Override
            public boolean hasNext() {
                while (!current.hasNext() && more) {
                    P page = read(reader, nextPage++);
                    List<T> items = shape.items().apply(page);
                    current = items == null ? List.<T>of().iterator() : items.iterator();
                    more = shape.hasNext().test(page) && items != null && !items.isEmpty();
                }
                return current.hasNext();
            }

            @Override
            public T next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return current.next();
            }
        };
    }

    private static <P> P read(PageReader<P> reader, int page) {
        try {
            return reader.read(page);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("could not read page " + page + ": " + e.getMessage(), e);
        }
    }
}
