package dev.cryptopay.gateway.securitylog;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.gateway.keys.ResolvedKey;
import dev.cryptopay.gateway.routing.AnsweringFilter;
import dev.cryptopay.service.request.ListQuery;
import dev.cryptopay.service.request.PageRequest;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Answers {@code GET /api/v1/account/security_events}: one page of the security log of the calling key's merchant and
 * mode, newest first. There is no route that changes an entry.
 */
public class SecurityEventsFilter extends AnsweringFilter {

    private final SecurityLog securityLog;

    public SecurityEventsFilter(SecurityLog securityLog, JsonMapper json) {
        super(json);
        this.securityLog = securityLog;
    }

    @Override
    protected Mono<Answer> answer(ServerWebExchange exchange, ResolvedKey caller, byte[] body) {
        ResolvedKey key = required(caller);
        ListQuery query = new ListQuery(exchange.getRequest().getQueryParams());
        PageRequest page = query.page("page_size", 20, 100);
        query.throwIfAny();
        UUID merchantId = key.identity().merchantId();
        Mode mode = key.identity().mode();
        return securityLog
                .page(merchantId, mode, page.offset(), page.size())
                .map(EventBody::of)
                .collectList()
                .flatMap(events -> securityLog
                        .count(merchantId, mode)
                        .map(total -> Answer.ok(new EventPage(
                                events, total, page.page(), page.size(), (total + page.size() - 1) / page.size()))));
    }

    /** One entry: what happened, to what, by which API key, from where, when. */
    record EventBody(
            UUID id,
            String action,
            UUID targetId,
            UUID apiKeyId,
            String apiKeyPrefix,
            String clientAddress,
            Instant createdAt) {

        static EventBody of(SecurityEvent event) {
            return new EventBody(
                    event.id(),
                    event.action().wireName(),
                    event.targetId(),
                    event.keyId(),
                    event.keyPrefix(),
                    event.clientAddress(),
                    event.createdAt());
        }
    }

    /** One page of entries; {@code total_pages} is 0 when there are none. */
    record EventPage(List<EventBody> events, long total, int page, int pageSize, long totalPages) {}
}
