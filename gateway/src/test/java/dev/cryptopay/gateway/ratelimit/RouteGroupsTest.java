package dev.cryptopay.gateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.gateway.routing.GatewayRoutes;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;

class RouteGroupsTest {

    @Test
    void groupsPaymentLinkCallsByMethodAndPath() {
        assertThat(RouteGroups.classify(GatewayRoutes.PAYMENT_LINKS, HttpMethod.POST, "/payment_links"))
                .isEqualTo(RouteGroup.PAYMENT_LINKS_WRITE);
        assertThat(RouteGroups.classify(GatewayRoutes.PAYMENT_LINKS, HttpMethod.DELETE, "/payment_links/pl_1"))
                .isEqualTo(RouteGroup.PAYMENT_LINKS_WRITE);
        assertThat(RouteGroups.classify(GatewayRoutes.PAYMENT_LINKS, HttpMethod.GET, "/payment_links"))
                .isEqualTo(RouteGroup.PAYMENT_LINKS_READ);
        assertThat(RouteGroups.classify(GatewayRoutes.PAYMENT_LINKS, HttpMethod.GET, "/payment_links/pl_1"))
                .isEqualTo(RouteGroup.PAYMENT_LINKS_READ);
        assertThat(RouteGroups.classify(GatewayRoutes.PAYMENT_LINKS, HttpMethod.GET, "/payment_links/currencies"))
                .isEqualTo(RouteGroup.PAYMENT_LINKS_CURRENCIES);
        assertThat(RouteGroups.classify(GatewayRoutes.PAYMENT_LINKS, HttpMethod.PUT, "/payment_links/receiving_key"))
                .isEqualTo(RouteGroup.RECEIVING_KEY);
        assertThat(RouteGroups.classify(GatewayRoutes.PAYMENT_LINKS, HttpMethod.GET, "/payment_links/receiving_key/"))
                .isEqualTo(RouteGroup.RECEIVING_KEY);
    }

    @Test
    void groupsSubscriptionCallsIntoReadsAndWrites() {
        assertThat(RouteGroups.classify(GatewayRoutes.SUBSCRIPTIONS, HttpMethod.GET, "/invitations"))
                .isEqualTo(RouteGroup.SUBSCRIPTIONS_READ);
        assertThat(RouteGroups.classify(GatewayRoutes.SUBSCRIPTIONS, HttpMethod.PUT, "/subscriber/s_1"))
                .isEqualTo(RouteGroup.SUBSCRIPTIONS_WRITE);
        assertThat(RouteGroups.classify(GatewayRoutes.SUBSCRIPTIONS, HttpMethod.DELETE, "/subscriptions/s_1"))
                .isEqualTo(RouteGroup.SUBSCRIPTIONS_WRITE);
    }

    @Test
    void groupsOtherRoutesByRoute() {
        assertThat(RouteGroups.classify(
                        GatewayRoutes.PUBLIC_LINK_PAYMENT, HttpMethod.POST, "/public/subscriptions/link/payment"))
                .isEqualTo(RouteGroup.PUBLIC_LINK_PAYMENT);
        assertThat(RouteGroups.classify(GatewayRoutes.PUBLIC, HttpMethod.GET, "/public/plans"))
                .isEqualTo(RouteGroup.PUBLIC);
        assertThat(RouteGroups.classify(GatewayRoutes.WEBHOOKS, HttpMethod.POST, "/webhook-endpoints"))
                .isEqualTo(RouteGroup.WEBHOOKS);
        assertThat(RouteGroups.classify(GatewayRoutes.ACCOUNT, HttpMethod.GET, "/account"))
                .isEqualTo(RouteGroup.ACCOUNT);
        assertThat(RouteGroups.classify(GatewayRoutes.NOTIFICATIONS, HttpMethod.PUT, "/notifications/settings"))
                .isEqualTo(RouteGroup.ACCOUNT);
    }

    @Test
    void countsTheMerchantsOwnRoutesAsAccountAndSignUpPerClientIp() {
        assertThat(RouteGroups.classify(GatewayRoutes.ACCOUNT_KEYS, HttpMethod.POST, "/account/keys"))
                .isEqualTo(RouteGroup.ACCOUNT);
        assertThat(RouteGroups.classify(GatewayRoutes.ACCOUNT_KEY, HttpMethod.DELETE, "/account/keys/k_1"))
                .isEqualTo(RouteGroup.ACCOUNT);
        assertThat(RouteGroups.classify(GatewayRoutes.PRODUCTION_ACCESS, HttpMethod.POST, "/account/production_access"))
                .isEqualTo(RouteGroup.ACCOUNT);
        assertThat(RouteGroups.classify(GatewayRoutes.SIGNUP, HttpMethod.POST, "/signup"))
                .isEqualTo(RouteGroup.SIGNUP);
        assertThat(RouteGroup.SIGNUP.scope()).isEqualTo(RouteGroup.Scope.CLIENT_IP);
    }

    @Test
    void countsEveryCheckoutCallPerClientIp() {
        for (String path :
                new String[] {"/checkout/payment_link", "/checkout/payment_link/events", "/checkout/assets/checkout.js"
                }) {
            assertThat(RouteGroups.classify(GatewayRoutes.CHECKOUT, HttpMethod.GET, path))
                    .as(path)
                    .isEqualTo(RouteGroup.CHECKOUT);
        }
        for (String path : new String[] {
            "/checkout/subscribe", "/checkout/subscribe/events", "/checkout/subscribe/assets/subscribe.js"
        }) {
            assertThat(RouteGroups.classify(GatewayRoutes.SUBSCRIBE_CHECKOUT, HttpMethod.GET, path))
                    .as(path)
                    .isEqualTo(RouteGroup.CHECKOUT);
        }
        assertThat(RouteGroups.classify(GatewayRoutes.SUBSCRIBE_CHECKOUT, HttpMethod.POST, "/checkout/subscribe/enrol"))
                .isEqualTo(RouteGroup.CHECKOUT);
        assertThat(RouteGroup.CHECKOUT.scope()).isEqualTo(RouteGroup.Scope.CLIENT_IP);
        assertThat(RouteGroup.CHECKOUT.wireName()).isEqualTo("checkout");
    }
}
