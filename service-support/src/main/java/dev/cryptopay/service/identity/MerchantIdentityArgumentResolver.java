package dev.cryptopay.service.identity;

import dev.cryptopay.auth.internal.MerchantIdentity;
import org.springframework.core.MethodParameter;
import org.springframework.web.reactive.BindingContext;
import org.springframework.web.reactive.result.method.HandlerMethodArgumentResolver;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** Lets a controller method declare a {@link MerchantIdentity} parameter; missing identity is a 401. */
public class MerchantIdentityArgumentResolver implements HandlerMethodArgumentResolver {

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return MerchantIdentity.class.equals(parameter.getParameterType());
    }

    @Override
    public Mono<Object> resolveArgument(
            MethodParameter parameter, BindingContext bindingContext, ServerWebExchange exchange) {
        return Mono.fromSupplier(() -> CurrentMerchant.require(exchange));
    }
}
