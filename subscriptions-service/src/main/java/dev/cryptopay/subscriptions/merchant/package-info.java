/**
 * What customers may read about a merchant beyond its signed plans: its display name, as the gateway forwards it
 * ({@code X-Merchant-Name}) with the merchant's plan creations and invitations.
 */
package dev.cryptopay.subscriptions.merchant;
