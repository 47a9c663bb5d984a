/** A plan's NFT metadata (the subscription token's JSON) and the image it points at. */
package dev.cryptopay.subscriptions.nft;
