/**
 * Scanning: one pass per chain reads the head, rewinds past a reorganisation, scans the next block range for
 * transfers to watched addresses and for the logs of the chain's subscription contract, updates confirmations and
 * reports what changed.
 */
package dev.cryptopay.chainwatcher.scan;
