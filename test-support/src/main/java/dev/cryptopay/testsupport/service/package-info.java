/**
 * {@code @ServiceTest} and {@code ServiceTestBase}: a service under test on a real database and broker, called the way
 * the gateway forwards requests (the internal test keys), with a clock the test moves; {@code OpenApiRoutes} checks the
 * service's API description against its routes.
 */
package dev.cryptopay.testsupport.service;
