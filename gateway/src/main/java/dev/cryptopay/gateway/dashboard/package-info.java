/**
 * The merchant dashboard at {@code /dashboard}: the dashboard module's static files, versioned by their content and
 * served with the customers' pages' security headers. The dashboard itself only calls the public API.
 */
package dev.cryptopay.gateway.dashboard;
