/** Trust in the gateway: verifies the internal identity token and exposes the calling merchant to handlers. */
package dev.cryptopay.service.identity;
