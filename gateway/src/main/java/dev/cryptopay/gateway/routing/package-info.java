/** Which paths are forwarded where, how requests are grouped, the order of filters and how proxy failures become problems. */
package dev.cryptopay.gateway.routing;
