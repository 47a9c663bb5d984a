package dev.cryptopay.notifications.settings;

import dev.cryptopay.notifications.email.EmailTemplate;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;

/**
 * A merchant's choices for one mode.
 *
 * @param displayName the name e-mails show for the merchant; null: the name the events carry
 * @param supportEmail where customers' replies go ({@code Reply-To}); null: no Reply-To
 * @param disabled the e-mails not sent
 * @param updatedAt when they were last changed; null while the merchant never changed them
 */
public record NotificationSettings(
        String displayName, String supportEmail, Set<EmailTemplate> disabled, Instant updatedAt) {

    /** What a merchant who never changed anything has: every e-mail on, the events' name, no Reply-To. */
    public static final NotificationSettings DEFAULT =
            new NotificationSettings(null, null, EnumSet.noneOf(EmailTemplate.class), null);

    public NotificationSettings {
        disabled = disabled.isEmpty() ? EnumSet.noneOf(EmailTemplate.class) : EnumSet.copyOf(disabled);
    }

    /** Whether this e-mail goes out. */
    public boolean sends(EmailTemplate template) {
        return !disabled.contains(template);
    }
}
