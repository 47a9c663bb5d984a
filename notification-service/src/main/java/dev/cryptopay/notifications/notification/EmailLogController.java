package dev.cryptopay.notifications.notification;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.notifications.email.EmailTemplate;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.request.ListQuery;
import dev.cryptopay.service.request.PageRequest;
import dev.cryptopay.service.response.Envelope;
import dev.cryptopay.service.response.Page;
import dev.cryptopay.service.response.PathIds;
import java.util.Arrays;
import java.util.List;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * The merchant's e-mail log: what was written to whom, and what became of it; newest first, paged like every list,
 * filtered by status, e-mail, recipient and time. The key's merchant and mode only.
 */
@RestController
class EmailLogController {

    private static final List<String> STATUSES = Arrays.stream(NotificationStatus.values())
            .map(NotificationStatus::wireName)
            .toList();

    private final NotificationRepository notifications;

    EmailLogController(NotificationRepository notifications) {
        this.notifications = notifications;
    }

    private record Filters(PageRequest page, NotificationRepository.LogFilter filter) {

        static Filters parse(MultiValueMap<String, String> params) {
            ListQuery query = new ListQuery(params);
            PageRequest page = query.page("limit", 20, 100);
            String status = query.oneOf("status", STATUSES, null);
            String template = query.oneOf("template", EmailTemplate.wireNames(), null);
            String recipient = query.text("recipient", 3, 254);
            ListQuery.DateRange created = query.dateRange("created_from", "created_to");
            query.throwIfAny();
            return new Filters(
                    page,
                    new NotificationRepository.LogFilter(status, template, recipient, created.from(), created.to()));
        }
    }

    @GetMapping("/notifications/emails")
    Mono<Envelope<Page<EmailResponse>>> list(
            MerchantIdentity merchant, @RequestParam MultiValueMap<String, String> params) {
        return Mono.fromSupplier(() -> Filters.parse(params))
                .flatMap(filters -> notifications
                        .count(merchant, filters.filter())
                        .zipWith(notifications
                                .page(
                                        merchant,
                                        filters.filter(),
                                        filters.page().size(),
                                        filters.page().offset())
                                .collectList())
                        .map(result -> Envelope.of(
                                "E-mails retrieved", Page.of(result.getT2(), filters.page(), result.getT1()))));
    }

    @GetMapping("/notifications/emails/{id}")
    Mono<Envelope<EmailResponse>> get(MerchantIdentity merchant, @PathVariable String id) {
        return Mono.fromSupplier(() -> PathIds.uuid(id, "e-mail"))
                .flatMap(emailId -> notifications.find(merchant, emailId))
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("E-mail not found")))
                .map(email -> Envelope.of("E-mail retrieved", email));
    }
}
