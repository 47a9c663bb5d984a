/**
 * The keeper: calls each chain's subscription contract's {@code collect} at the due times, from a gas-only key, at the
 * end of the chain's pass (under its lease). Every transaction is recorded before it is broadcast.
 */
package dev.cryptopay.chainwatcher.keeper;
