/** Exact amounts: reading bounds and the two wire renderings (JSON number, raw token units as a string). */
package dev.cryptopay.service.money;
