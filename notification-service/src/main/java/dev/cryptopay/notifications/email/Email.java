package dev.cryptopay.notifications.email;

/**
 * One e-mail, rendered and ready to keep and send.
 *
 * @param template the template's name ({@code subscription_invitation}), also what the e-mail log shows
 * @param recipient the address it goes to, as the event named it
 * @param senderName the display name beside the From address: the merchant's, "via" the platform's
 * @param replyTo the merchant's support address replies go to, or null
 * @param subject the subject line, one line of plain text
 * @param html the HTML part, every value escaped by the engine
 * @param text the plain-text part
 */
public record Email(
        String template,
        String recipient,
        String senderName,
        String replyTo,
        String subject,
        String html,
        String text) {

    /** This e-mail with replies going to {@code address} (null: none). */
    public Email withReplyTo(String address) {
        return new Email(template, recipient, senderName, address, subject, html, text);
    }
}
