package dev.cryptopay.gateway.config;

import dev.cryptopay.auth.signature.RequestVerifier;
import dev.cryptopay.gateway.account.AccountFilter;
import dev.cryptopay.gateway.account.AccountKeysFilter;
import dev.cryptopay.gateway.admin.MerchantAdmin;
import dev.cryptopay.gateway.auth.AuthFailures;
import dev.cryptopay.gateway.auth.AuthProperties;
import dev.cryptopay.gateway.auth.LocalReplayGuard;
import dev.cryptopay.gateway.auth.ReplayGuard;
import dev.cryptopay.gateway.auth.ReplayGuardFilter;
import dev.cryptopay.gateway.auth.SignatureAuthenticationFilter;
import dev.cryptopay.gateway.identity.IdentityPropagationFilter;
import dev.cryptopay.gateway.identity.IdentityProperties;
import dev.cryptopay.gateway.keys.ApiKeyRegistry;
import dev.cryptopay.gateway.keys.KeyRegistryProperties;
import dev.cryptopay.gateway.keys.KeyRepository;
import dev.cryptopay.gateway.keys.KeyRevocations;
import dev.cryptopay.gateway.keys.LastUsedRecorder;
import dev.cryptopay.gateway.keys.PublishableKeyRepository;
import dev.cryptopay.gateway.observability.AccessLogFilter;
import dev.cryptopay.gateway.observability.UpstreamTimingFilter;
import dev.cryptopay.gateway.production.ProductionAccess;
import dev.cryptopay.gateway.production.ProductionAccessFilter;
import dev.cryptopay.gateway.ratelimit.ClientAddressResolver;
import dev.cryptopay.gateway.ratelimit.LocalRateLimiter;
import dev.cryptopay.gateway.ratelimit.PreAuthLimitFilter;
import dev.cryptopay.gateway.ratelimit.RateLimitFilter;
import dev.cryptopay.gateway.ratelimit.RateLimitProperties;
import dev.cryptopay.gateway.ratelimit.RateLimiter;
import dev.cryptopay.gateway.ratelimit.RedisRateLimiter;
import dev.cryptopay.gateway.ratelimit.StreamLimitFilter;
import dev.cryptopay.gateway.ratelimit.StreamLimitProperties;
import dev.cryptopay.gateway.redis.GatewayRedisProperties;
import dev.cryptopay.gateway.redis.RedisConnector;
import dev.cryptopay.gateway.redis.RedisReplayGuard;
import dev.cryptopay.gateway.routing.GatewayRoutes;
import dev.cryptopay.gateway.routing.UpstreamFailures;
import dev.cryptopay.gateway.routing.UpstreamProperties;
import dev.cryptopay.gateway.securitylog.SecurityEventsFilter;
import dev.cryptopay.gateway.securitylog.SecurityLog;
import dev.cryptopay.gateway.securitylog.SecurityLogFilter;
import dev.cryptopay.gateway.signup.SignupFilter;
import dev.cryptopay.service.error.ProblemExceptionHandler;
import dev.cryptopay.service.error.ProblemWriter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.r2dbc.core.DatabaseClient;
import tools.jackson.databind.json.JsonMapper;

/**
 * The merchant-facing server: routes (and the filters of those the gateway answers itself), authentication, limits,
 * replay guard, identity propagation, error mapping and observability. Only in the web application; the command line needs none of it.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@EnableConfigurationProperties({
    GatewayProperties.class,
    UpstreamProperties.class,
    AuthProperties.class,
    IdentityProperties.class,
    RateLimitProperties.class,
    StreamLimitProperties.class,
    GatewayRedisProperties.class
})
public class GatewayWebConfiguration {

    @Bean
    RouteLocator gatewayRoutes(
            RouteLocatorBuilder builder,
            UpstreamProperties upstreams,
            AccountFilter account,
            AccountKeysFilter accountKeys,
            ProductionAccessFilter productionAccess,
            SecurityEventsFilter securityEvents,
            ObjectProvider<SignupFilter> signup) {
        return GatewayRoutes.routes(
                builder,
                upstreams,
                new GatewayRoutes.OwnRoutes(
                        account, accountKeys, productionAccess, securityEvents, signup.getIfAvailable()));
    }

    /** The shared problem handler, told about the failures only a proxy has; replaces the services' default one. */
    @Bean
    ProblemExceptionHandler gatewayProblemExceptionHandler(ProblemWriter writer) {
        return new ProblemExceptionHandler(writer, List.of(new UpstreamFailures()));
    }

    @Bean
    ApiKeyRegistry apiKeyRegistry(
            KeyRepository repository, PublishableKeyRepository publishableKeys, KeyRegistryProperties properties) {
        return new ApiKeyRegistry(repository, publishableKeys, properties);
    }

    @Bean
    LastUsedRecorder lastUsedRecorder(
            KeyRepository repository, PublishableKeyRepository publishableKeys, KeyRegistryProperties properties) {
        return new LastUsedRecorder(repository, publishableKeys, properties.lastUsedFlushInterval());
    }

    @Bean
    AuthFailures authFailures(MeterRegistry meters) {
        return new AuthFailures(meters);
    }

    @Bean
    SignatureAuthenticationFilter signatureAuthenticationFilter(
            AuthProperties auth,
            GatewayProperties gateway,
            ApiKeyRegistry registry,
            LastUsedRecorder lastUsed,
            AuthFailures failures,
            JsonMapper json,
            Clock clock,
            MeterRegistry meters) {
        RequestVerifier verifier =
                new RequestVerifier(clock, auth.timestampTolerance(), auth.requireQueryInSignedPath());
        return new SignatureAuthenticationFilter(
                verifier,
                registry,
                lastUsed,
                failures,
                json,
                clock,
                (int) gateway.maxBodySize().toBytes(),
                meters);
    }

    @Bean(destroyMethod = "close")
    RedisConnector redisConnector(GatewayRedisProperties redis) {
        return new RedisConnector(redis);
    }

    @Bean
    RateLimiter rateLimiter(
            GatewayRedisProperties redis, RateLimitProperties limits, ObjectProvider<RedisConnector> connector) {
        if (redis.enabled()) {
            return new RedisRateLimiter(connector.getObject(), redis.keyPrefix(), redis.timeout());
        }
        return new LocalRateLimiter(limits.period(), 100_000);
    }

    @Bean
    ReplayGuard replayGuard(
            GatewayRedisProperties redis, AuthProperties auth, ObjectProvider<RedisConnector> connector) {
        if (redis.enabled()) {
            return new RedisReplayGuard(connector.getObject(), redis.keyPrefix(), auth.replayWindow(), redis.timeout());
        }
        return new LocalReplayGuard(auth.replayWindow(), auth.replayCacheSize());
    }

    @Bean
    RateLimitFilter rateLimitFilter(
            RateLimiter limiter, RateLimitProperties limits, GatewayProperties gateway, MeterRegistry meters) {
        return new RateLimitFilter(limiter, limits, new ClientAddressResolver(gateway.trustedProxies()), meters);
    }

    @Bean
    StreamLimitFilter streamLimitFilter(
            StreamLimitProperties streams, GatewayProperties gateway, MeterRegistry meters) {
        return new StreamLimitFilter(streams, new ClientAddressResolver(gateway.trustedProxies()), meters);
    }

    @Bean
    PreAuthLimitFilter preAuthLimitFilter(
            RateLimiter limiter, RateLimitProperties limits, GatewayProperties gateway, MeterRegistry meters) {
        return new PreAuthLimitFilter(limiter, limits, new ClientAddressResolver(gateway.trustedProxies()), meters);
    }

    @Bean
    ReplayGuardFilter replayGuardFilter(ReplayGuard guard, AuthFailures failures) {
        return new ReplayGuardFilter(guard, failures);
    }

    @Bean
    IdentityPropagationFilter identityPropagationFilter(
            IdentityProperties identity, GatewayProperties gateway, Clock clock) {
        return new IdentityPropagationFilter(
                identity.signer(), clock, (int) gateway.maxBodySize().toBytes());
    }

    @Bean
    AccountFilter accountFilter(RateLimitProperties limits, JsonMapper json) {
        return new AccountFilter(limits, json);
    }

    @Bean
    AccountKeysFilter accountKeysFilter(
            MerchantAdmin admin,
            KeyRepository keys,
            PublishableKeyRepository publishableKeys,
            KeyRevocations revocations,
            ProductionAccess productionAccess,
            ApiKeyRegistry registry,
            Clock clock,
            JsonMapper json) {
        return new AccountKeysFilter(
                admin, keys, publishableKeys, revocations, productionAccess, registry, clock, json);
    }

    @Bean
    ProductionAccessFilter productionAccessFilter(ProductionAccess productionAccess, JsonMapper json) {
        return new ProductionAccessFilter(productionAccess, json);
    }

    @Bean
    SecurityLog securityLog(DatabaseClient database) {
        return new SecurityLog(database);
    }

    @Bean
    SecurityLogFilter securityLogFilter(
            SecurityLog securityLog, GatewayProperties gateway, Clock clock, MeterRegistry meters) {
        return new SecurityLogFilter(securityLog, new ClientAddressResolver(gateway.trustedProxies()), clock, meters);
    }

    @Bean
    SecurityEventsFilter securityEventsFilter(SecurityLog securityLog, JsonMapper json) {
        return new SecurityEventsFilter(securityLog, json);
    }

    @Bean
    UpstreamTimingFilter upstreamTimingFilter(MeterRegistry meters) {
        return new UpstreamTimingFilter(meters);
    }

    @Bean
    AccessLogFilter accessLogFilter() {
        return new AccessLogFilter();
    }
}
