package dev.cryptopay.notifications.compose;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.notifications.email.Email;
import dev.cryptopay.notifications.email.EmailTemplate;
import dev.cryptopay.notifications.email.Notice;
import dev.cryptopay.notifications.merchant.MerchantProfiles;
import dev.cryptopay.notifications.notification.NotificationRepository.NewNotification;
import dev.cryptopay.notifications.settings.NotificationSettings;
import dev.cryptopay.notifications.settings.SettingsRepository;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiFunction;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Makes the e-mails of notices as each merchant chose: those it switched off left out, its name for e-mails (else the
 * notice's {@code merchant_name}, else the name remembered from an earlier event), its support address as the
 * Reply-To. The statements run one after the other, so a caller's transaction may hold them.
 */
@Component
public class EmailComposer {

    private final MerchantProfiles profiles;
    private final SettingsRepository settings;

    public EmailComposer(MerchantProfiles profiles, SettingsRepository settings) {
        this.profiles = profiles;
        this.settings = settings;
    }

    /** A notice and the e-mail id it is kept under ({@code eventId}: the event's, or one derived for a reminder). */
    public record Source(Notice notice, UUID eventId, String eventType) {

        public static Source of(Notice notice) {
            return new Source(notice, notice.eventId(), notice.type());
        }
    }

    /**
     * The e-mails to keep for these sources; {@code emails} renders a source's e-mails given the merchant's name.
     */
    public Mono<List<NewNotification>> compose(List<Source> sources, BiFunction<Source, String, List<Email>> emails) {
        if (sources.isEmpty()) {
            return Mono.just(List.of());
        }
        Set<UUID> unnamed = new HashSet<>();
        Set<MerchantIdentity> senders = new HashSet<>();
        for (Source source : sources) {
            Notice notice = source.notice();
            senders.add(new MerchantIdentity(notice.merchantId(), notice.mode()));
            if (notice.notifyText("merchant_name") == null) {
                unnamed.add(notice.merchantId());
            }
        }
        return profiles.namesOf(unnamed)
                .flatMap(names -> settings.findAll(senders).map(chosen -> {
                    List<NewNotification> made = new ArrayList<>();
                    for (Source source : sources) {
                        Notice notice = source.notice();
                        NotificationSettings choice = chosen.getOrDefault(
                                new MerchantIdentity(notice.merchantId(), notice.mode()), NotificationSettings.DEFAULT);
                        String eventName = notice.notifyText("merchant_name");
                        String name = choice.displayName() != null
                                ? choice.displayName()
                                : eventName != null ? eventName : names.get(notice.merchantId());
                        for (Email email : emails.apply(source, name)) {
                            boolean sent = EmailTemplate.fromWireName(email.template())
                                    .map(choice::sends)
                                    .orElse(true);
                            if (sent) {
                                made.add(new NewNotification(
                                        source.eventId(),
                                        source.eventType(),
                                        notice.merchantId(),
                                        notice.mode(),
                                        email.withReplyTo(choice.supportEmail())));
                            }
                        }
                    }
                    return made;
                }));
    }

    /** The merchant names the notices carry (the latest of each merchant), to remember. */
    public static Map<UUID, String> carriedNames(List<Notice> notices) {
        Map<UUID, String> carried = new HashMap<>();
        for (Notice notice : notices) {
            String name = notice.notifyText("merchant_name");
            if (name != null) {
                carried.put(notice.merchantId(), name);
            }
        }
        return carried;
    }
}
