package dev.cryptopay.chainwatcher.keeper;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import dev.cryptopay.chainwatcher.report.SubscriptionsReporter;
import dev.cryptopay.chainwatcher.report.SubscriptionsReporter.ScopeAnswer;
import dev.cryptopay.chainwatcher.report.SubscriptionsReporter.ScopeQuestion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Whom the keeper works for. The contract's logs name every subscription anyone made, for any plan anyone signed; the
 * keeper collects only those the platform answers for, which subscriptions-service alone knows (a link it bound, on a
 * plan it holds, neither stopped nor expired: {@code POST /internal/keeper/scope}). Each pass asks, in one question per
 * thousand ids, about
 * <ul>
 *   <li>the subscriptions it is about to read and perhaps collect: a stop made before the pass is honoured in it;</li>
 *   <li>up to {@value #NEW_PER_PASS} it never asked about or whose time to ask again came (out of scope ones are asked
 *       again ten seconds later, then twenty, forty, … at most {@link #ASK_AGAIN_AT_MOST}: a link bound a little after its
 *       log, or a stopped one restarted, comes back).</li>
 * </ul>
 * No answer (subscriptions-service down, a refusal): the pass collects nothing, counted and alerted on; a keeper that
 * cannot tell a stopped subscription from a live one must not move anyone's money.
 */
final class Scope {

    private static final Logger log = LoggerFactory.getLogger(Scope.class);

    /** At most this many subscriptions asked about for the first time (or again) in a pass. */
    static final int NEW_PER_PASS = 500;

    static final Duration ASK_AGAIN_AT_MOST = Duration.ofMinutes(10);

    private static final int IDS_PER_QUESTION = 1000;

    private final Network network;
    private final String contract;
    private final SubscriptionsReporter subscriptionsService;
    private final KeptSubscriptionRepository subscriptions;
    private final KeeperMetrics metrics;

    Scope(
            Network network,
            SubscriptionsReporter subscriptionsService,
            KeptSubscriptionRepository subscriptions,
            KeeperMetrics metrics) {
        this.network = network;
        this.contract = network.contract().orElseThrow();
        this.subscriptionsService = subscriptionsService;
        this.subscriptions = subscriptions;
        this.metrics = metrics;
    }

    /**
     * Asks about {@code candidates} (those the pass would read) and about subscriptions waiting for an answer, stores
     * the answers and answers the candidates still in scope, in their order; none when subscriptions-service did not
     * answer.
     */
    Mono<List<KeptSubscription>> confirm(List<KeptSubscription> candidates, Pass pass) {
        long chain = network.chainId();
        return subscriptions
                .toAsk(chain, contract, pass.now(), NEW_PER_PASS)
                .collectList()
                .flatMap(waiting -> {
                    Set<String> ids = new LinkedHashSet<>();
                    candidates.forEach(candidate -> ids.add(candidate.subscriptionId()));
                    ids.addAll(waiting);
                    if (ids.isEmpty()) {
                        return Mono.just(List.<KeptSubscription>of());
                    }
                    return ask(new ArrayList<>(ids))
                            .onErrorResume(failure -> {
                                metrics.scopeUnanswered(network);
                                log.warn(
                                        "Chain {}: subscriptions-service did not say which subscriptions to collect;"
                                                + " nothing collected this pass: {}",
                                        chain,
                                        failure.toString());
                                return Mono.empty();
                            })
                            .flatMap(answers -> record(answers, pass).thenReturn(inScope(candidates, answers)))
                            .defaultIfEmpty(List.of());
                });
    }

    /** The candidates the answers keep, in their order; one left unanswered is not collected. */
    private static List<KeptSubscription> inScope(List<KeptSubscription> candidates, List<ScopeAnswer> answers) {
        Map<String, ScopeAnswer> byId = answers.stream()
                .collect(Collectors.toMap(ScopeAnswer::subscriptionId, Function.identity(), (first, next) -> first));
        return candidates.stream()
                .filter(candidate -> {
                    ScopeAnswer answer = byId.get(candidate.subscriptionId());
                    return answer != null && kept(answer);
                })
                .toList();
    }

    private static boolean kept(ScopeAnswer answer) {
        return answer.collect() && answer.merchantId() != null;
    }

    private Mono<List<ScopeAnswer>> ask(List<String> ids) {
        List<List<String>> questions = new ArrayList<>();
        for (int from = 0; from < ids.size(); from += IDS_PER_QUESTION) {
            questions.add(ids.subList(from, Math.min(ids.size(), from + IDS_PER_QUESTION)));
        }
        return Flux.fromIterable(questions)
                .concatMap(part -> subscriptionsService
                        .scope(new ScopeQuestion(network.chainId(), contract, part))
                        .map(answers -> {
                            List<ScopeAnswer> received =
                                    answers.subscriptions() == null ? List.of() : answers.subscriptions();
                            // Only answers to what was asked count; an id left out is not collected.
                            Set<String> asked = Set.copyOf(part);
                            return received.stream()
                                    .filter(answer -> answer != null && asked.contains(answer.subscriptionId()))
                                    .toList();
                        }))
                .concatMapIterable(Function.identity())
                .collectList();
    }

    private Mono<Void> record(List<ScopeAnswer> answers, Pass pass) {
        long chain = network.chainId();
        return Flux.fromIterable(answers)
                .concatMap(answer -> {
                    if (kept(answer)) {
                        return subscriptions.kept(chain, answer.subscriptionId(), answer.merchantId(), pass.now());
                    }
                    log.debug(
                            "Chain {}: subscription {} is not collected ({})",
                            chain,
                            answer.subscriptionId(),
                            answer.reason());
                    return subscriptions.foreign(
                            chain,
                            answer.subscriptionId(),
                            answer.merchantId(),
                            answer.reason(),
                            ASK_AGAIN_AT_MOST,
                            pass.now());
                })
                .then();
    }
}
