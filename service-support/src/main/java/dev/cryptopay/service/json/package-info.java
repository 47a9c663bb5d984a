/** The JSON rules every service shares (naming, exact numbers, strict parsing). */
package dev.cryptopay.service.json;
