/**
 * Which paths are forwarded where, how each route is authenticated, the order of filters and the failures only a
 * proxy has.
 */
package dev.cryptopay.gateway.routing;
