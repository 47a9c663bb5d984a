/** USD values of transfers at their confirmation, from the network's on-chain price feeds. */
package dev.cryptopay.chainwatcher.pricing;
