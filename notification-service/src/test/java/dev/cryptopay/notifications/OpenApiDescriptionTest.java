package dev.cryptopay.notifications;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.testsupport.service.OpenApiRoutes;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;

/** The OpenAPI description is kept by hand; this test fails as soon as it and the routes disagree. */
class OpenApiDescriptionTest extends NotificationTestBase {

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    @Test
    void describesExactlyTheRoutesTheServiceServes() {
        assertThat(OpenApiRoutes.described("/openapi/notifications.yaml")).isEqualTo(OpenApiRoutes.served(mappings));
    }
}
