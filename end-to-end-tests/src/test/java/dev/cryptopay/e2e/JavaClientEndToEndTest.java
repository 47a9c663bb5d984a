package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.client.CryptoPayClient;
import dev.cryptopay.client.CryptoPayException;
import dev.cryptopay.client.Pages;
import dev.cryptopay.client.account.model.CreateAccountKey;
import dev.cryptopay.client.account.model.CreatedAccountKey;
import dev.cryptopay.client.account.model.KeyScope;
import dev.cryptopay.client.invoker.ApiClient;
import dev.cryptopay.client.invoker.ApiException;
import dev.cryptopay.client.notifications.model.Email;
import dev.cryptopay.client.notifications.model.EmailTemplate;
import dev.cryptopay.client.notifications.model.NotificationSettings;
import dev.cryptopay.client.notifications.model.NotificationSettingsUpdate;
import dev.cryptopay.client.paymentlinks.model.CreatePaymentLink;
import dev.cryptopay.client.paymentlinks.model.PaymentLink;
import dev.cryptopay.client.paymentlinks.model.PaymentStatus;
import dev.cryptopay.client.subscriptions.model.CreatePlan;
import dev.cryptopay.client.subscriptions.model.CreateSubscriber;
import dev.cryptopay.client.subscriptions.model.Plan;
import dev.cryptopay.client.subscriptions.model.PlanTermsRequest;
import dev.cryptopay.client.subscriptions.model.Subscriber;
import dev.cryptopay.client.subscriptions.model.TypedDataResponse;
import dev.cryptopay.client.webhook.WebhookVerificationException;
import dev.cryptopay.client.webhook.WebhookVerifier;
import dev.cryptopay.client.webhooks.model.CreateWebhookEndpoint;
import dev.cryptopay.client.webhooks.model.EventType;
import dev.cryptopay.client.webhooks.model.WebhookEndpoint;
import dev.cryptopay.deploy.LocalStack;
import dev.cryptopay.deploy.SandboxCredentials;
import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Sign;
import org.web3j.utils.Numeric;

/**
 * The Java client a merchant adds to its project, against the running suite through the gateway: signed calls with
 * the key in both of its forms, typed answers and errors, idempotent creates, pagination, subscriptions with a
 * wallet-signed plan, and a real webhook delivery verified by the client's helper.
 */
class JavaClientEndToEndTest {

    private static LocalStack stack;
    private static SandboxCredentials merchant;
    private static CryptoPayClient client;

    @BeforeAll
    static void startSuite() {
        stack = SuiteStack.get();
        merchant = stack.newMerchant("Java Client Shop", Mode.TEST);
        client = CryptoPayClient.builder()
                .baseUrl(stack.baseUrl())
                .apiKey(merchant.apiKey())
                .privateKey(merchant.privateKey())
                .build();
    }

    private static CreatePaymentLink link(String name, String amount) {
        return new CreatePaymentLink()
                .paymentName(name)
                .amount(new BigDecimal(amount))
                .currency("USDC");
    }

    @Test
    void paymentLinksAreCreatedReadListedPageByPageAndCancelled() throws Exception {
        assertThat(client.account().getAccount().getMerchantId().toString()).isEqualTo(merchant.merchantId());
        assertThat(client.paymentLinks().listCurrencies().getData())
                .extracting(currency -> currency.getCode())
                .contains("USDC");

        List<UUID> created = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            created.add(client.paymentLinks()
                    .createPaymentLink(link("Java order " + i, "1" + i + ".50"), null)
                    .getData()
                    .getId());
        }
        PaymentLink read = client.paymentLinks().getPaymentLink(created.get(2)).getData();
        assertThat(read.getPaymentName()).isEqualTo("Java order 2");
        assertThat(read.getAmount()).isEqualByComparingTo("12.50");
        assertThat(read.getSummary()).isNotNull();

        List<UUID> walked = Pages.stream(
                        page -> client.paymentLinks()
                                .listPaymentLinks(
                                        page, 2, null, null, null, null, null, null, null, "Java order", null, null),
                        Pages.PAYMENT_LINKS)
                .map(PaymentLink::getId)
                .toList();
        assertThat(walked).as("three pages of two").containsExactlyInAnyOrderElementsOf(created);

        PaymentLink cancelled =
                client.paymentLinks().deletePaymentLink(created.get(0)).getData();
        assertThat(cancelled.getPaymentStatus()).isEqualTo(PaymentStatus.CANCELLED);
    }

    @Test
    void theSameIdempotencyKeyCreatesOneLink() throws Exception {
        String key = "java-client-" + UUID.randomUUID();
        UUID first = client.paymentLinks()
                .createPaymentLink(link("Idempotent", "3.00"), key)
                .getData()
                .getId();
        UUID again = client.paymentLinks()
                .createPaymentLink(link("Idempotent", "3.00"), key)
                .getData()
                .getId();
        assertThat(again).isEqualTo(first);

        assertThatThrownBy(() -> client.paymentLinks().createPaymentLink(link("Other body", "4.00"), key))
                .isInstanceOfSatisfying(CryptoPayException.class, e -> {
                    assertThat(e.status()).isEqualTo(409);
                    assertThat(e.requestId()).isPresent();
                });
    }

    @Test
    void errorsComeBackTypedWithTheirCodeFieldsAndRequestId() {
        assertThatThrownBy(() -> client.paymentLinks().getPaymentLink(UUID.randomUUID()))
                .isInstanceOfSatisfying(CryptoPayException.class, e -> {
                    assertThat(e.status()).isEqualTo(404);
                    assertThat(e.code()).isEqualTo("not_found");
                    assertThat(e.requestId())
                            .hasValueSatisfying(id -> assertThat(id).isNotBlank());
                });
        assertThatThrownBy(() -> client.paymentLinks().createPaymentLink(link("Bad", "-1"), null))
                .isInstanceOfSatisfying(CryptoPayException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.errors())
                            .extracting(CryptoPayException.FieldError::field)
                            .contains("amount");
                });

        CryptoPayClient wrongKey = CryptoPayClient.builder()
                .baseUrl(stack.baseUrl())
                .apiKey(merchant.apiKey())
                .privateKey(stack.newMerchant("Someone Else", Mode.TEST).privateKey())
                .build();
        assertThatThrownBy(() -> wrongKey.account().getAccount())
                .isInstanceOfSatisfying(
                        CryptoPayException.class, e -> assertThat(e.status()).isEqualTo(401));
    }

    @Test
    void aReadOnlyKeyMadeThroughTheClientReadsButCannotCreate() throws Exception {
        CreatedAccountKey created =
                client.account().createAccountKey(new CreateAccountKey().scopes(List.of(KeyScope.READ)));
        assertThat(created.getScopes()).containsExactly(KeyScope.READ);
        CryptoPayClient reader = CryptoPayClient.builder()
                .baseUrl(stack.baseUrl())
                .apiKey(created.getApiKey())
                .privateKey(created.getPrivateKey())
                .build();

        assertThat(reader.account().getAccount().getScopes()).containsExactly(KeyScope.READ);
        assertThat(reader.paymentLinks().listCurrencies().getData()).isNotEmpty();
        assertThatThrownBy(() -> reader.paymentLinks().createPaymentLink(link("Read-only order", "1.00"), null))
                .isInstanceOfSatisfying(CryptoPayException.class, e -> {
                    assertThat(e.status()).isEqualTo(403);
                    assertThat(e.code()).isEqualTo("missing_scope");
                    assertThat(e.getMessage()).contains("payment_links");
                });
        assertThat(client.account().listAccountKeys(1, 100).getKeys())
                .filteredOn(key -> key.getId().equals(created.getId()))
                .singleElement()
                .satisfies(key -> assertThat(key.getScopes()).containsExactly(KeyScope.READ));
    }

    @Test
    void theKeyInPemFormSignsAsWell() throws Exception {
        CryptoPayClient pem = CryptoPayClient.builder()
                .baseUrl(stack.baseUrl())
                .apiKey(merchant.apiKey())
                .privateKey(merchant.privateKeyPem())
                .build();

        assertThat(pem.account().getAccount().getMerchantId().toString()).isEqualTo(merchant.merchantId());
    }

    @Test
    void aWalletSignedPlanGetsASubscriberAndIsReadPublicly() throws Exception {
        // The dev chain's first account: a public development key, standing in for the merchant's wallet.
        ECKeyPair wallet = ECKeyPair.create(
                Numeric.toBigInt("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"));
        long nonce = System.nanoTime() % 1_000_000_000L;
        PlanTermsRequest terms = new PlanTermsRequest()
                .merchant("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")
                .destination("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC")
                .token("0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512")
                .amount("10000000")
                .interval(2_592_000L)
                .planNonce(nonce)
                .name("Java Pro");
        TypedDataResponse typed = client.plans().planTypedData(terms);
        // The typed data exactly as the client read it, as a wallet's eth_signTypedData_v4 receives it.
        String typedJson = ApiClient.createDefaultObjectMapper().writeValueAsString(typed.getTypedData());
        Sign.SignatureData signature = Sign.signTypedData(typedJson, wallet);

        Plan plan = client.plans()
                .createPlan(
                        new CreatePlan()
                                .merchant(terms.getMerchant())
                                .destination(terms.getDestination())
                                .token(terms.getToken())
                                .amount(terms.getAmount())
                                .interval(terms.getInterval())
                                .planNonce(nonce)
                                .name(terms.getName())
                                .merchantSig(Numeric.toHexString(signature.getR())
                                        + Numeric.toHexStringNoPrefix(signature.getS())
                                        + Numeric.toHexStringNoPrefix(signature.getV())),
                        null);
        assertThat(plan.getDigest()).isEqualTo(typed.getDigest());
        assertThat(plan.getInterval()).isEqualTo(2_592_000L);

        Subscriber invited = client.subscribers()
                .createSubscriber(
                        new CreateSubscriber().subscriptionPlanId(plan.getId()).customerEmail("grace@example.com"),
                        null);
        assertThat(Pages.stream(
                                page -> client.subscribers().listInvitations(page, 10, plan.getId(), null, null, null),
                                Pages.INVITATIONS)
                        .map(Subscriber::getId))
                .containsExactly(invited.getId());
        assertThat(Pages.stream(page -> client.plans().listPlans(page, 1, "Java Pro", null, null, null), Pages.PLANS)
                        .map(Plan::getId))
                .contains(plan.getId());

        assertThat(client.publicRoutes().getPublicPlan(plan.getId()).getId()).isEqualTo(plan.getId());

        // The invitation is e-mailed by notification-service; the merchant's e-mail log and settings, through the
        // client.
        NotificationSettings settings = client.notifications()
                .updateNotificationSettings(new NotificationSettingsUpdate()
                        .supportEmail("help@java.example")
                        .emails(Map.of("payment_receipt", false)))
                .getData();
        assertThat(settings.getSupportEmail()).isEqualTo("help@java.example");
        assertThat(settings.getEmails())
                .containsEntry("payment_receipt", false)
                .containsEntry("subscription_invitation", true);
        assertThat(client.notifications().getNotificationSettings().getData()).isEqualTo(settings);
        await(
                "the invitation in the e-mail log",
                Duration.ofSeconds(60),
                () -> !invitationEmails().isEmpty());
        Email email = invitationEmails().get(0);
        assertThat(email.getRecipient()).isEqualTo("grace@example.com");
        assertThat(email.getEventType()).isEqualTo("subscriber.invited");
        assertThat(client.notifications()
                        .getNotificationEmail(email.getId())
                        .getData()
                        .getText())
                .contains("Java Pro");
        assertThat(client.plans().deprecatePlan(plan.getId())).isNotNull();
    }

    /** The log's invitations to grace@example.com (the client's checked exception made an assertion failure). */
    private static List<Email> invitationEmails() {
        try {
            return client.notifications()
                    .listNotificationEmails(
                            1, 10, null, EmailTemplate.SUBSCRIPTION_INVITATION, "grace@example.com", null, null)
                    .getData()
                    .getData();
        } catch (ApiException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aRealDeliveryIsVerifiedByTheClientsWebhookHelper() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            WebhookEndpoint endpoint = client.webhookEndpoints()
                    .createWebhookEndpoint(
                            new CreateWebhookEndpoint()
                                    .url(URI.create(receiver.url()))
                                    .events(List.of(EventType.PAYMENT_CREATED)),
                            null)
                    .getData();
            assertThat(endpoint.getSecret()).startsWith("whsec_");
            assertThat(client.webhookEndpoints().listWebhookEndpoints().getData())
                    .extracting(WebhookEndpoint::getId)
                    .contains(endpoint.getId());

            UUID linkId = client.paymentLinks()
                    .createPaymentLink(link("Delivered", "7.00"), null)
                    .getData()
                    .getId();
            await(
                    "a delivery of " + linkId,
                    Duration.ofSeconds(60),
                    () -> receiver.received().stream()
                            .anyMatch(d -> d.bodyText().contains(linkId.toString())));
            WebhookReceiver.Received delivery = receiver.received().stream()
                    .filter(d -> d.bodyText().contains(linkId.toString()))
                    .findFirst()
                    .orElseThrow();

            WebhookVerifier verifier = new WebhookVerifier(endpoint.getSecret());
            assertThat(verifier.verify(delivery.headers(), delivery.body()))
                    .isEqualTo(delivery.header("X-Service-Event-Id"));
            verifier.verifySignature(delivery.headers(), delivery.body());
            assertThatThrownBy(() -> verifier.verify(delivery.headers(), delivery.body()))
                    .isInstanceOf(WebhookVerificationException.class)
                    .hasMessageContaining("replay");
            byte[] tampered = delivery.bodyText()
                    .replace(linkId.toString(), UUID.randomUUID().toString())
                    .getBytes(StandardCharsets.UTF_8);
            assertThat(tampered).isNotEqualTo(delivery.body());
            assertThatThrownBy(() -> new WebhookVerifier(endpoint.getSecret()).verify(delivery.headers(), tampered))
                    .isInstanceOf(WebhookVerificationException.class);

            assertThat(Pages.stream(
                                    page -> client.webhookDeliveries()
                                            .listWebhookDeliveries(endpoint.getId(), page, 100, null, null),
                                    Pages.DELIVERIES)
                            .map(d -> d.getEventId().toString()))
                    .contains(delivery.header("X-Service-Event-Id"));
            assertThat(client.webhookEndpoints()
                            .deleteWebhookEndpoint(endpoint.getId())
                            .getData()
                            .getId())
                    .isEqualTo(endpoint.getId());
        }
    }

    @Test
    void theCheckoutStatusIsReadWithoutSigning() throws Exception {
        UUID linkId = client.paymentLinks()
                .createPaymentLink(link("Checkout", "5.00"), null)
                .getData()
                .getId();

        assertThat(client.checkout().getCheckoutStatus(linkId).getCurrency()).isEqualTo("USDC");
    }
}
