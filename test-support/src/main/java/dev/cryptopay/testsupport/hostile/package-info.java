/**
 * The hostile-request corpus and its runner: every service's HTTP layer is sent the same committed corpus of hostile
 * bodies, field values, query strings and headers, and must answer each with a 2xx or 4xx, quickly, changing nothing
 * on a 4xx.
 */
package dev.cryptopay.testsupport.hostile;
