/** The event catalogue shared by producers and webhook-service: type names and the record envelope. */
package dev.cryptopay.service.events;
