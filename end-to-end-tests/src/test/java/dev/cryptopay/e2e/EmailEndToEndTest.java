package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static dev.cryptopay.e2e.SuiteStack.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.deploy.LocalStack;
import dev.cryptopay.testsupport.chain.DevTokens;
import dev.cryptopay.testsupport.mail.MimeParts;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * E-mails through the running suite: a payment link with a customer's address, paid on the dev chain, makes a receipt
 * that reaches the launcher's SMTP server (GreenMail) from notification-service, in the name and with the support
 * address the merchant set through the gateway, and shows in the merchant's e-mail log; the launcher's example
 * invitation arrived too. Both e-mails are then looked at in Chromium at desktop and phone widths (screenshots in
 * {@code target/email-screenshots}), with axe-core.
 */
class EmailEndToEndTest {

    private static final Path SCREENSHOTS = Path.of("target", "email-screenshots");
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void aPaidLinksReceiptAndTheSandboxInvitationArriveInTheMerchantsNameAndReadWellOnAPhone() throws Exception {
        LocalStack stack = SuiteStack.get();
        try (MoneyPathsMerchant merchant = MoneyPathsMerchant.start("E-mail Shop")) {
            HttpResponse<String> settings = merchant.api.send(
                    "PUT",
                    "/notifications/settings",
                    "{\"display_name\":\"Mugs & <Co>\",\"support_email\":\"help@mugs.example\"}");
            assertThat(settings.statusCode()).as(settings.body()).isEqualTo(200);
            String to = "buyer-" + UUID.randomUUID().toString().substring(0, 8) + "@customer.test";
            JsonNode link = merchant.createLink(
                    "Mug <b>large</b>",
                    "12.5",
                    ",\"customer_email\":\"" + to + "\",\"customer_name\":\"Grace <Hopper>\",\"order_id\":\"mug-7\"");
            String id = link.get("id").asString();
            merchant.pay(DevTokens.USDC, link.get("deposit_address").asString(), "12.5");
            merchant.confirm();
            merchant.awaitStatus(id, "completed");

            MimeMessage receipt = awaitMail(stack, to);
            assertThat(receipt.getSubject()).isEqualTo("[Test mode] Receipt from Mugs & <Co>: 12.5 USDC");
            assertThat(((InternetAddress) receipt.getFrom()[0]).getPersonal()).isEqualTo("Mugs & <Co> via CryptoPay");
            assertThat(((InternetAddress) receipt.getReplyTo()[0]).getAddress()).isEqualTo("help@mugs.example");
            String html = MimeParts.part(receipt, "text/html");
            assertThat(html)
                    .contains("Hello Grace &lt;Hopper&gt;,")
                    .contains("Mugs &amp; &lt;Co&gt;")
                    .contains("mug-7")
                    .contains("12.5 USDC")
                    .doesNotContain("<Hopper>");
            assertThat(MimeParts.part(receipt, "text/plain"))
                    .contains("Hello Grace <Hopper>,")
                    .contains("Amount: 12.5 USDC")
                    .contains("Order: mug-7")
                    .contains(link.get("payment_url").asString());

            JsonNode log = JSON.readTree(merchant.api
                            .get("/notifications/emails?recipient=" + to)
                            .body())
                    .get("data")
                    .get("data");
            assertThat(log.size()).isEqualTo(1);
            assertThat(log.get(0).get("template").asString()).isEqualTo("payment_receipt");
            assertThat(log.get(0).get("status").asString()).isEqualTo("sent");
            assertThat(log.get(0).get("event_type").asString()).isEqualTo("payment.completed");

            MimeMessage invitation = awaitMail(stack, "dev-customer@example.test");
            assertThat(invitation.getSubject()).contains("invites you to subscribe: Example monthly plan");

            Files.createDirectories(SCREENSHOTS);
            Path receiptHtml = SCREENSHOTS.resolve("payment-receipt.html");
            Path invitationHtml = SCREENSHOTS.resolve("subscription-invitation.html");
            Files.writeString(receiptHtml, html);
            Files.writeString(invitationHtml, MimeParts.part(invitation, "text/html"));
            JsonNode walk = NodeTools.runWalk(
                    "email-walk.mjs",
                    Duration.ofMinutes(2),
                    SCREENSHOTS.toAbsolutePath().toString(),
                    "payment-receipt=" + receiptHtml.toAbsolutePath(),
                    "subscription-invitation=" + invitationHtml.toAbsolutePath());
            NodeTools.assertPagesClean(walk, SCREENSHOTS, "", List.of("payment-receipt", "subscription-invitation"));
            assertThat(walk.get("external").values().stream().map(JsonNode::asInt))
                    .as("an e-mail loads nothing from elsewhere")
                    .containsOnly(0);
        }
    }

    /** The first e-mail to {@code recipient} among the launcher's saved messages, waited for. */
    private static MimeMessage awaitMail(LocalStack stack, String recipient) throws Exception {
        MimeMessage[] found = new MimeMessage[1];
        await("an e-mail to " + recipient, WAIT, () -> {
            found[0] = find(stack.mailDir(), recipient).orElse(null);
            return found[0] != null;
        });
        return found[0];
    }

    private static Optional<MimeMessage> find(Path dir, String recipient) {
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".eml")).sorted().toList()) {
                MimeMessage message = MimeParts.read(file);
                if (message.getAllRecipients() != null
                        && Stream.of(message.getAllRecipients())
                                .anyMatch(address ->
                                        ((InternetAddress) address).getAddress().equals(recipient))) {
                    return Optional.of(message);
                }
            }
            return Optional.empty();
        } catch (IOException | jakarta.mail.MessagingException e) {
            return Optional.empty(); // a file being written: the next look reads it whole
        }
    }
}
