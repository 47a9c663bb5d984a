package dev.cryptopay.notifications.settings;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cryptopay.notifications.email.EmailTemplate;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The merchant's e-mail settings as the API answers them: {@code emails} names every e-mail with whether it is sent.
 *
 * @param updatedAt null while the merchant never changed anything
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record SettingsResponse(
        String displayName, String supportEmail, Map<String, Boolean> emails, boolean livemode, Instant updatedAt) {

    static SettingsResponse of(NotificationSettings settings, boolean livemode) {
        Map<String, Boolean> emails = new LinkedHashMap<>();
        for (EmailTemplate template : EmailTemplate.values()) {
            emails.put(template.wireName(), settings.sends(template));
        }
        return new SettingsResponse(
                settings.displayName(), settings.supportEmail(), emails, livemode, settings.updatedAt());
    }
}
