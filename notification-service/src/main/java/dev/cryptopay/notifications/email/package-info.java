/**
 * Which events make which e-mails, and their text: one Thymeleaf engine renders an HTML and a plain-text part of each
 * from templates under {@code templates/email/}, escaping every value in HTML.
 */
package dev.cryptopay.notifications.email;
