/** The success shapes every service answers with: the {@code {message, data}} envelope, pages, path ids. */
package dev.cryptopay.service.response;
