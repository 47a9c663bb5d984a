package dev.cryptopay.service.identity;

import dev.cryptopay.auth.internal.InternalCallers;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.result.method.RequestMappingInfo;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.pattern.PathPattern;

/**
 * Which internal callers each route accepts: the callers of its {@link AllowedCallers}, or the gateway alone. Read
 * once from the annotated controllers. A request that several mappings could serve (before the dispatcher picks one)
 * is allowed only the callers all of them accept; a request no mapping serves, only the gateway (it gets its 404).
 */
final class RouteCallers {

    static final Set<String> DEFAULT = Set.of(InternalCallers.GATEWAY);

    private record Rule(Set<HttpMethod> methods, List<PathPattern> patterns, Set<String> callers) {

        boolean matches(HttpMethod method, PathContainer path) {
            boolean methodMatches = methods.isEmpty()
                    || methods.contains(method)
                    || (HttpMethod.HEAD.equals(method) && methods.contains(HttpMethod.GET));
            return methodMatches && patterns.stream().anyMatch(pattern -> pattern.matches(path));
        }
    }

    private final List<Rule> rules;

    private RouteCallers(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    static RouteCallers of(Stream<RequestMappingHandlerMapping> mappings) {
        List<Rule> rules = new ArrayList<>();
        mappings.forEach(
                mapping -> mapping.getHandlerMethods().forEach((info, handler) -> rules.add(rule(info, handler))));
        return new RouteCallers(rules);
    }

    /** The callers allowed on this request. */
    Set<String> allowed(HttpMethod method, PathContainer path) {
        Set<String> allowed = null;
        for (Rule rule : rules) {
            if (rule.matches(method, path)) {
                if (allowed == null) {
                    allowed = new HashSet<>(rule.callers());
                } else {
                    allowed.retainAll(rule.callers());
                }
            }
        }
        return allowed == null ? DEFAULT : Set.copyOf(allowed);
    }

    private static Rule rule(RequestMappingInfo info, HandlerMethod handler) {
        Set<HttpMethod> methods = new HashSet<>();
        for (RequestMethod method : info.getMethodsCondition().getMethods()) {
            methods.add(method.asHttpMethod());
        }
        List<PathPattern> patterns = List.copyOf(info.getPatternsCondition().getPatterns());
        return new Rule(Set.copyOf(methods), patterns, callersOf(handler));
    }

    private static Set<String> callersOf(HandlerMethod handler) {
        AllowedCallers allowed = handler.getMethodAnnotation(AllowedCallers.class);
        if (allowed == null) {
            allowed = AnnotatedElementUtils.findMergedAnnotation(handler.getBeanType(), AllowedCallers.class);
        }
        if (allowed == null) {
            return DEFAULT;
        }
        for (String caller : allowed.value()) {
            if (!InternalCallers.isWellFormed(caller)) {
                throw new IllegalStateException(
                        "@AllowedCallers of " + handler + " names a malformed caller: " + caller);
            }
        }
        return Set.of(allowed.value());
    }
}
