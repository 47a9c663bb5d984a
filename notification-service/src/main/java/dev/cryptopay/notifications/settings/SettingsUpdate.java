package dev.cryptopay.notifications.settings;

import dev.cryptopay.notifications.email.EmailTemplate;
import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.Patch;
import dev.cryptopay.service.request.TextField;
import dev.cryptopay.service.request.Violations;
import java.time.Instant;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A {@code PUT /notifications/settings} body: every member optional; a member left out keeps its value, {@code null}
 * clears {@code display_name} or {@code support_email}; {@code emails} switches e-mails on ({@code true}) or off
 * ({@code false}) by name, those it does not name keep their state.
 */
record SettingsUpdate(Patch<String> displayName, Patch<String> supportEmail, Map<EmailTemplate, Boolean> emails) {

    static final TextField DISPLAY_NAME = Field.string("display_name")
            .length(1, 100)
            .satisfying(
                    name -> !name.isBlank() && name.codePoints().noneMatch(Character::isISOControl),
                    "must be one line of text, not blank");
    static final TextField SUPPORT_EMAIL = Field.email("support_email");
    static final String EMAILS = "emails";

    static SettingsUpdate parse(JsonMapper json, String body) {
        JsonNode root = JsonBody.object(json, body);
        Violations violations = new Violations();
        violations.rejectUnknown(root, "", Field.names(EMAILS, DISPLAY_NAME, SUPPORT_EMAIL));
        Patch<String> name = DISPLAY_NAME.patch(root, violations).map(String::strip);
        Patch<String> support = SUPPORT_EMAIL.patch(root, violations);
        Map<EmailTemplate, Boolean> emails = new EnumMap<>(EmailTemplate.class);
        JsonNode switches = root.get(EMAILS);
        if (switches != null && !switches.isObject()) {
            violations.reject(EMAILS, EMAILS + " must be an object of e-mail names and true or false");
        } else if (switches != null) {
            for (Map.Entry<String, JsonNode> entry : switches.properties()) {
                String path = EMAILS + "." + entry.getKey();
                var template = EmailTemplate.fromWireName(entry.getKey());
                if (template.isEmpty()) {
                    violations.reject(
                            path, path + " is not an e-mail; one of " + String.join(", ", EmailTemplate.wireNames()));
                } else if (!entry.getValue().isBoolean()) {
                    violations.reject(path, path + " must be true or false");
                } else {
                    emails.put(template.get(), entry.getValue().asBoolean());
                }
            }
        }
        violations.throwIfAny();
        return new SettingsUpdate(name, support, emails);
    }

    /** The settings after this update. */
    NotificationSettings applyTo(NotificationSettings current, Instant now) {
        Set<EmailTemplate> disabled =
                current.disabled().isEmpty() ? EnumSet.noneOf(EmailTemplate.class) : EnumSet.copyOf(current.disabled());
        emails.forEach((template, on) -> {
            if (on) {
                disabled.remove(template);
            } else {
                disabled.add(template);
            }
        });
        return new NotificationSettings(
                displayName.applyTo(current.displayName()),
                supportEmail.applyTo(current.supportEmail()),
                disabled,
                now);
    }
}
