/**
 * The merchant's e-mail settings ({@code GET}/{@code PUT /notifications/settings}): the name shown, the support
 * address replies go to, and which e-mails are sent; per mode.
 */
package dev.cryptopay.notifications.settings;
