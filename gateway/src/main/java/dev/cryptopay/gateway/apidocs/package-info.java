/**
 * The one API description ({@code GET /openapi.json}), merged from the gateway's own part and each service's, and the
 * reference page that shows it ({@code GET /docs}, Swagger UI from its webjar).
 */
package dev.cryptopay.gateway.apidocs;
