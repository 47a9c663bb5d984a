/**
 * Reminders before subscriptions' payments: scheduled from each event's {@code notify.next_payment}, and at the
 * reminder's moment worded from what the chain shows (the wallet's token balance and the subscription contract's
 * allowance, read with {@code eth_call}).
 */
package dev.cryptopay.notifications.reminder;
