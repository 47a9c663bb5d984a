/** Spring plumbing shared by every service: errors, request ids, gateway identity and the outbox. */
package dev.cryptopay.service;
