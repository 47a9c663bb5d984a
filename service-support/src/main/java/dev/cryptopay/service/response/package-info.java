/** The success shapes every service answers with: the {@code {message, data}} envelope, pagination, path ids. */
package dev.cryptopay.service.response;
