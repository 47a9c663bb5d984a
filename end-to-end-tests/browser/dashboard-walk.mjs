// Walks the merchant dashboard in Debian's Chromium, as a new merchant would: sign up (the key pair made in the page,
// the private key saved as a file), register a receiving key, ask for production access, create a payment link (a
// refused amount first, its message next to the field), see it paid on the dev chain, create and revoke an API key,
// sign out and sign in again with the saved key file, and a remembered session across a reload. Then, with the
// keyboard only, through the navigation to a link (its QR code) and the webhooks, where it adds an endpoint (refused
// first); a delivery to it fails, shows its attempt, and is retried once the receiver succeeds; the secret is
// rotated, failed deliveries recovered, another endpoint deleted; the webhook link paid, its page lists its events
// with their deliveries, one leading to its attempts. On the main pages axe-core checks accessibility;
// screenshots at desktop and phone widths.
//
//   node dashboard-walk.mjs <gateway_url> <rpc_url> <payer_address> <xpub> <fixtures_dir> <screenshot_dir> <download_dir>
//     <webhook_receiver_url> <receiver_control_url>
//
// fixtures_dir is auth-lib's test fixtures: the page's own signing module must sign their canonical request exactly as
// Node.js did. The payer holds the dev chain's USDC and is unlocked on the dev chain, so the script pays a link with
// eth_sendTransaction and mines blocks until the link shows completed. It prints one JSON line describing what it saw
// and exits non-zero on any failure (with what it saw so far). The webhook receiver is the Java test's: it answers 500
// until the script POSTs <receiver_control_url>/succeed, and GET <receiver_control_url>/calls counts its deliveries.
import { mkdirSync, readFileSync } from "node:fs";
import { dashboardWalk, merchantContext, pageChecks, recordPage, signIn } from "./dashboard-support.mjs";
import { focusedElement, rpcClient, tabTo } from "./walk-support.mjs";

const [gateway, rpcUrl, payer, xpub, fixtures, screenshots, downloads, receiverUrl, receiverControl] =
  process.argv.slice(2);
if (!receiverControl) {
  console.error("usage: node dashboard-walk.mjs <gateway_url> <rpc_url> <payer_address> <xpub> <fixtures_dir> "
    + "<screenshot_dir> <download_dir> <webhook_receiver_url> <receiver_control_url>");
  process.exit(2);
}
mkdirSync(screenshots, { recursive: true });
mkdirSync(downloads, { recursive: true });

const HOSTILE_NAME = "Walk Shop <img src=x onerror=alert(1)>";
const HOSTILE_LINK = "Beans <script>alert(2)</script>";
const rpc = rpcClient(rpcUrl);

// What it saw, as printed on a failure: without the private key file's text.
const reported = (result) => ({ ...result, keyFileText: undefined });
await dashboardWalk("dashboard walk", {}, async (browser, result) => {
  const context = await merchantContext(browser, gateway, { acceptDownloads: true });
  const page = await context.newPage();
  // Only the dashboard's own confirmations are expected (revoking a key, rotating a secret, deleting an endpoint);
  // anything else would be an injection.
  recordPage(page, result, { acceptConfirmations: true });
  const { heading, waitForHeading, nav, shoot, axe } = pageChecks(page, result, screenshots);

  // 1. The page, and its signing module against auth-lib's fixture (made by Node.js crypto).
  await page.goto(`${gateway}/dashboard`, { waitUntil: "load" });
  await waitForHeading("Sign in");
  result.assetBase = (await page.locator('script[type="module"]').getAttribute("src")).replace(/\/app\.js$/, "");
  result.vector = await page.evaluate(async ({ base, pem, compact, body }) => {
    const signing = await import(`${base}/signing.js`);
    const message = signing.canonicalMessage("POST", "/payment_links", "2026-01-01T12:00:00Z",
      new TextEncoder().encode(body));
    return {
      fromPem: await signing.sign(await signing.importPrivateKey(pem), message),
      fromCompact: await signing.sign(await signing.importPrivateKey(compact), message),
      message: signing.base64(message),
    };
  }, {
    base: result.assetBase,
    pem: readFileSync(`${fixtures}/ed25519-node-test-only-private.pem`, "utf8"),
    compact: readFileSync(`${fixtures}/ed25519-node-test-only-private.compact.txt`, "utf8"),
    body: '{"payment_name":"Caf\u00e9 \u2615","amount":10,"currency":"USDC"}',
  });
  await axe("signin");
  await shoot("1-sign-in");

  // 2. Sign up: a refused e-mail address first, shown next to its field.
  await page.getByRole("link", { name: "Sign up for a test account" }).click();
  await waitForHeading("Sign up");
  await page.getByLabel("Business name").fill(HOSTILE_NAME);
  await page.getByLabel("E-mail address").fill("not-an-address");
  await page.getByRole("button", { name: "Create test account" }).click();
  await page.locator('[data-error-for="email"]:not(:empty)').waitFor();
  result.signupEmailError = await page.locator('[data-error-for="email"]').textContent();
  result.signupEmailInvalid = await page.getByLabel("E-mail address").getAttribute("aria-invalid");
  await axe("signup");
  await shoot("2-sign-up-refused");
  await page.getByLabel("E-mail address").fill("walk@example.com");
  await page.getByRole("button", { name: "Create test account" }).click();
  await waitForHeading("Your test account is ready");
  result.apiKey = (await page.locator("#new-api-key").textContent()).trim();
  result.publishableKey = (await page.locator("dd code").nth(1).textContent()).trim();
  result.continueDisabledBeforeDownload = await page.locator("#continue").isDisabled();
  const [download] = await Promise.all([page.waitForEvent("download"), page.locator("#download-key").click()]);
  result.keyFileName = download.suggestedFilename();
  result.keyFile = `${downloads}/${result.keyFileName}`;
  await download.saveAs(result.keyFile);
  result.keyFileText = readFileSync(result.keyFile, "utf8");
  await shoot("3-keys-once");
  await page.locator("#continue").click();
  await waitForHeading("Overview");
  result.mode = (await page.locator("#mode").textContent()).trim();
  result.merchantName = (await page.locator("#merchant-name").textContent()).trim();
  result.accountHeading = (await page.locator("#account-heading").textContent()).trim();

  // 3. Developers: the receiving key, production access.
  await nav("Developers", "Developers");
  await page.getByLabel("Extended public key").fill(xpub);
  await page.getByRole("button", { name: "Register receiving key" }).click();
  await page.locator("#receiving-key-facts").waitFor();
  result.receivingFingerprint = await page.locator("#receiving-key-facts dd").nth(1).textContent();
  await page.getByLabel("What will you sell?").fill("Coffee beans, shipped within the EU");
  await page.getByLabel("Website (optional)").fill("https://walk.example");
  await page.getByRole("button", { name: "Ask for production access" }).click();
  await page.locator('#production-status[data-status="pending"]').waitFor();
  result.productionAccess = await page.locator("#production-status").getAttribute("data-status");
  result.currentKeyMarked = await page.locator("#api-keys").getByText("Signing this session").count();
  await axe("developers");
  await shoot("4-developers");

  // 4. A payment link: a refused amount first, then created.
  await nav("Payment links", "Payment links");
  await axe("links-empty");
  await page.getByRole("link", { name: "Create payment link" }).click();
  await waitForHeading("Create payment link");
  await page.getByLabel("Name").fill(HOSTILE_LINK);
  await page.getByLabel("Amount").fill("12abc");
  await page.getByLabel("Currency").selectOption("USDC");
  await page.getByRole("button", { name: "Create payment link" }).click();
  await page.locator('[data-error-for="amount"]:not(:empty)').waitFor();
  result.amountError = await page.locator('[data-error-for="amount"]').textContent();
  result.amountInvalid = await page.getByLabel("Amount").getAttribute("aria-invalid");
  await axe("link-new");
  await shoot("5-link-refused");
  await page.getByLabel("Amount").fill("2.5");
  await page.getByRole("button", { name: "Create payment link" }).click();
  await page.locator("#link-status").waitFor();
  result.linkHeading = await heading();
  result.linkUrl = page.url();
  result.linkId = result.linkUrl.split("/").pop();
  result.paymentUrl = await page.locator("#payment-url").inputValue();
  result.depositAddress = (await page.locator("#deposit-address").textContent()).trim();
  await page.locator("#copy-payment-url").click();
  result.copied = await page.evaluate(() => navigator.clipboard.readText());
  await axe("link");
  await shoot("6-link-pending");

  // 5. Paid on the dev chain: the payer sends the link's amount of its token to the deposit address.
  const link = paymentRequest((await page.locator("#payment-uri").textContent()).trim());
  const token = link.token;
  const data = "0xa9059cbb" + link.to.slice(2).toLowerCase().padStart(64, "0")
    + BigInt(link.units).toString(16).padStart(64, "0");
  result.paymentTx = await rpc("eth_sendTransaction", [{ from: payer, to: token, data }]);
  for (let i = 0; i < 90; i++) {
    if (await page.locator('#link-status[data-status="completed"]').count()) {
      break;
    }
    await rpc("anvil_mine", ["0x1"]);
    await page.waitForTimeout(1000);
  }
  await page.locator('#link-status[data-status="completed"]').waitFor({ timeout: 15000 });
  result.received = (await page.locator("#received").textContent()).trim();
  result.transactions = await page.locator("#link-payments tbody tr").count();
  await shoot("7-link-paid");

  // 6. The overview and the list with filters.
  await nav("Overview", "Overview");
  await page.locator("#totals").waitFor();
  result.totals = (await page.locator('#totals li[data-currency="USDC"] .total-amount').textContent()).trim();
  result.totalsDetail = (await page.locator('#totals li[data-currency="USDC"] .total-detail').textContent()).trim();
  result.totalsUsd = (await page.locator("#totals-fiat .total-amount").textContent()).trim();
  result.recentFirst = (await page.locator("main table tbody tr td a").first().textContent()).trim();
  await axe("overview");
  await shoot("8-overview");
  await nav("Payment links", "Payment links");
  await page.getByLabel("Status").selectOption("completed");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await page.waitForFunction(() => location.search.includes("status=completed"));
  await page.locator("#results-heading").waitFor();
  await page.waitForFunction(() => document.querySelector("#results-heading")?.textContent === "1 payment link");
  result.filteredUrl = page.url();
  result.filteredHeading = await page.locator("#results-heading").textContent();
  await axe("links");
  await shoot("9-links-completed");
  await page.getByLabel("Amount from").fill("lots");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await page.locator('[data-error-for="min_amount"]:not(:empty)').waitFor();
  result.filterError = await page.locator('[data-error-for="min_amount"]').textContent();

  // 7. A second key, read-only: made in the page, saved, then revoked.
  await nav("Developers", "Developers");
  for (const scope of ["payment_links", "subscriptions", "webhooks", "account"]) {
    await page.locator(`#scope-${scope}`).uncheck();
  }
  await page.getByRole("button", { name: "Create API key" }).click();
  await page.locator("#created-api-key").waitFor();
  result.secondKeyNotice = await page.locator("#new-key").textContent();
  result.secondApiKey = (await page.locator("#created-api-key").textContent()).trim();
  const [second] = await Promise.all([page.waitForEvent("download"), page.locator("#download-new-key").click()]);
  result.secondKeyFile = `${downloads}/${second.suggestedFilename()}`;
  await second.saveAs(result.secondKeyFile);
  const prefix = result.secondApiKey.slice(0, 12);
  await page.locator(`[data-revoke="${prefix}"]`).waitFor();
  await page.locator(`[data-revoke="${prefix}"]`).click();
  await page.getByText(`${prefix}… is revoked.`).waitFor();
  result.keyRows = await page.locator("#api-keys tbody tr").allTextContents();
  // Asking for a live key before production access is approved.
  await page.getByLabel("Mode").selectOption("live");
  await page.getByRole("button", { name: "Create API key" }).click();
  await page.locator('[data-error-for="mode"]:not(:empty)').waitFor();
  result.liveKeyError = await page.locator('[data-error-for="mode"]').textContent();
  await shoot("10-keys");
  // The security log shows the second key's life: made, first used never (it signed nothing), revoked.
  await nav("Security", "Security");
  await page.locator('[data-action="api_key.revoked"]').first().waitFor();
  result.securityRows = await page.locator("main tbody tr").allTextContents();
  await axe("security");
  // The e-mail settings: a refused support address is shown at its field; the corrected settings are kept (read
  // back after leaving the page), and the log says what was written.
  await nav("E-mails", "E-mails");
  await page.getByLabel("Name shown as the sender").fill("Walk <b>shop</b>");
  await page.getByLabel("Support address (replies go here)").fill("not an address");
  await page.getByLabel("Payment receipt").uncheck();
  await page.getByRole("button", { name: "Save e-mail settings" }).click();
  await page.locator('[data-error-for="support_email"]:not(:empty)').waitFor();
  result.supportEmailError = await page.locator('[data-error-for="support_email"]').textContent();
  await page.getByLabel("Support address (replies go here)").fill("help@walk.example");
  await page.getByRole("button", { name: "Save e-mail settings" }).click();
  await page.locator("#settings-saved .notice").waitFor();
  await nav("Security", "Security");
  await nav("E-mails", "E-mails");
  result.emailSettings = {
    name: await page.getByLabel("Name shown as the sender").inputValue(),
    support: await page.getByLabel("Support address (replies go here)").inputValue(),
    paymentReceipt: await page.getByLabel("Payment receipt").isChecked(),
    invitation: await page.getByLabel("Invitation to subscribe").isChecked(),
  };
  result.emailLog = (await page.locator("#email-log").textContent()).trim();
  await shoot("10b-emails");
  await axe("emails");

  // 8. Sign out, then in again: the revoked key's file with the first API key is refused; the saved file works.
  await page.getByRole("button", { name: "Sign out" }).click();
  await waitForHeading("Sign in");
  result.navHiddenSignedOut = await page.locator("#nav").isHidden();
  await signIn(page, result.apiKey, result.secondKeyFile);
  await page.locator('[data-error-for="private_key"]:not(:empty)').waitFor();
  result.wrongKeyError = await page.locator('[data-error-for="private_key"]').textContent();
  await page.getByLabel("Private key file").setInputFiles(result.keyFile);
  await page.getByRole("button", { name: "Sign in" }).click();
  await waitForHeading("Overview");
  result.signedInAgain = (await page.locator("#mode").textContent()).trim();

  // 9. Memory only: a reload forgets the session; "remember on this device" keeps it (IndexedDB) until sign-out.
  await page.goto(`${gateway}/dashboard/links/${result.linkId}`, { waitUntil: "load" });
  await waitForHeading("Sign in");
  await signIn(page, result.apiKey, result.keyFile, { remember: true });
  await waitForHeading(HOSTILE_LINK);
  result.deepLinkAfterSignIn = new URL(page.url()).pathname;
  await page.reload({ waitUntil: "load" });
  await waitForHeading(HOSTILE_LINK);
  result.rememberedAfterReload = true;
  await page.getByRole("button", { name: "Sign out" }).click();
  await waitForHeading("Sign in");
  await page.reload({ waitUntil: "load" });
  await waitForHeading("Sign in");
  result.forgottenAfterSignOut = true;

  // 10. Keyboard: the skip link is the first stop and leads to the content.
  await page.keyboard.press("Tab");
  result.firstTabStop = await page.evaluate(() => document.activeElement?.textContent?.trim());

  // 11. Keyboard only (Tab, Shift+Tab, Enter, Space; text typed): from the overview through the navigation to the
  // payment links, the paid link (its QR code shown), the webhooks, and an endpoint added after a refused first try.
  await signIn(page, result.apiKey, result.keyFile);
  await waitForHeading("Overview");
  const keyboard = { stops: [], focus: {} };
  result.keyboard = keyboard;
  // A view is ready for the keyboard once its content is in and the focus moved to its heading.
  const ready = async (selector) => {
    await page.locator(selector).first().waitFor();
    await page.waitForFunction(() => document.activeElement?.tagName === "H1");
    return focusedElement(page);
  };
  const isNav = (name) => (focused) => focused.tag === "a" && focused.name === name && focused.landmark === "Dashboard";
  keyboard.focus.overview = await ready("#webhook-health");
  await tabTo(page, "Shift+Tab", isNav("Payment links"), keyboard.stops);
  await page.keyboard.press("Enter");
  keyboard.focus.links = await ready("#results-heading");
  await tabTo(page, "Tab", (focused) => focused.tag === "a" && focused.name === HOSTILE_LINK, keyboard.stops);
  await page.keyboard.press("Enter");
  keyboard.focus.link = await ready("#link-status");
  await page.waitForFunction(() => {
    const image = document.querySelector("#payment-url-qr");
    return image?.complete && image.naturalWidth > 0;
  });
  result.qr = await page.locator("#payment-url-qr").evaluate((image) => ({ src: new URL(image.src).pathname
    + new URL(image.src).search, alt: image.alt, naturalWidth: image.naturalWidth }));
  result.linkWebhooksNote = (await page.locator("#link-webhooks").textContent()).replace(/\s+/g, " ").trim();
  await shoot("11-link-qr");
  await tabTo(page, "Shift+Tab", isNav("Webhooks"), keyboard.stops);
  await page.keyboard.press("Enter");
  keyboard.focus.webhooks = await ready("#create-endpoint");
  await tabTo(page, "Tab", (focused) => focused.name === "Endpoint URL", keyboard.stops);
  await page.keyboard.type(receiverUrl);
  await tabTo(page, "Tab", (focused) => focused.name === "Description (optional)", keyboard.stops);
  await page.keyboard.type("Order fulfilment");
  // No event chosen: the API refuses, its message at the events, the focus on the first of them.
  await tabTo(page, "Tab", (focused) => focused.tag === "button" && focused.name === "Add endpoint", keyboard.stops);
  await page.keyboard.press("Enter");
  await page.locator('[data-error-for="events"]:not(:empty)').waitFor();
  result.eventsError = await page.locator('[data-error-for="events"]').textContent();
  keyboard.focus.afterRefusal = await page.evaluate(() => ({ value: document.activeElement.value,
    invalid: document.activeElement.getAttribute("aria-invalid") }));
  await axe("webhooks");
  await shoot("12-webhooks-refused");
  await page.keyboard.press("Space");
  await tabTo(page, "Tab", (focused) => focused.name === "payment.completed", keyboard.stops);
  await page.keyboard.press("Space");
  await tabTo(page, "Tab", (focused) => focused.tag === "button" && focused.name === "Add endpoint", keyboard.stops);
  await page.keyboard.press("Enter");
  await page.locator("#new-secret").waitFor();
  keyboard.focus.afterCreate = await focusedElement(page);
  result.newSecret = (await page.locator("#new-secret-value").textContent()).trim();
  await tabTo(page, "Tab", (focused) => focused.name === "Copy secret", keyboard.stops);
  await page.keyboard.press("Enter");
  await page.locator("#new-secret").getByText("Copied.").waitFor();
  result.secretCopied = await page.evaluate(() => navigator.clipboard.readText());
  result.endpointRows = await page.locator("#webhook-endpoints tbody tr").allTextContents();
  await shoot("13-webhook-secret");
  await tabTo(page, "Tab", (focused) => focused.name === "Open the endpoint and its deliveries", keyboard.stops);
  await page.keyboard.press("Enter");
  keyboard.focus.endpoint = await ready("#deliveries-count");
  result.endpointId = page.url().split("/").pop();
  result.secretShownOnce = !(await page.locator("main").textContent()).includes(result.newSecret);

  // 12. A payment link sends payment.created; the receiver answers 500 (Retry-After: an hour) until told otherwise.
  await nav("Payment links", "Payment links");
  await page.getByRole("link", { name: "Create payment link" }).click();
  await waitForHeading("Create payment link");
  await page.getByLabel("Name").fill("Webhook trigger");
  await page.getByLabel("Amount").fill("1");
  await page.getByLabel("Currency").selectOption("USDC");
  await page.getByRole("button", { name: "Create payment link" }).click();
  await page.locator("#link-status").waitFor();
  result.webhookLinkId = page.url().split("/").pop();
  for (let i = 0; i < 60 && Number(await (await fetch(`${receiverControl}/calls`)).text()) < 1; i++) {
    await page.waitForTimeout(500);
  }
  await nav("Webhooks", "Webhooks");
  await page.locator(`#webhook-endpoints a[href$="${result.endpointId}"]`).click();
  // The attempt's result is written once the receiver has answered: read the list again until it shows it.
  await page.locator("#deliveries-count").waitFor();
  for (let i = 0; i < 20 && !(await page.locator("#delivery-results tbody tr", { hasText: "HTTP 500" }).count());
    i++) {
    await page.waitForTimeout(1000);
    await page.locator("#refresh-deliveries").click();
    await page.locator("#deliveries-count").waitFor();
  }
  result.deliveryRows = await page.locator("#delivery-results tbody tr").allTextContents();
  result.endpointState = await page.locator("#endpoint-state [data-state]").getAttribute("data-state");
  await axe("webhook");
  await shoot("14-webhook-failing");
  await page.locator("#delivery-results tbody a[data-delivery]").first().click();
  await page.locator("#delivery-attempts").waitFor();
  result.deliveryId = page.url().split("/").pop();
  const attemptCodes = () => page.locator("#delivery-attempts tbody tr td:nth-child(3)").allTextContents();
  result.attemptsBeforeRetry = await attemptCodes();
  result.deliveryStatusBeforeRetry = await page.locator("#delivery-status [data-status]").getAttribute("data-status");
  await axe("webhook-delivery");
  await shoot("15-delivery-failed");

  // 13. The overview names the failing endpoint; back to the delivery, the receiver now succeeds: Retry delivers.
  await nav("Overview", "Overview");
  await page.locator("#webhook-health").waitFor();
  result.failingOnOverview = await page.locator("#webhook-health tbody tr").allTextContents();
  await axe("overview-failing");
  await shoot("16-overview-failing");
  await page.goBack();
  await page.locator("#retry-delivery").waitFor();
  await fetch(`${receiverControl}/succeed`, { method: "POST" });
  await page.locator("#retry-delivery").click();
  await page.locator('#delivery-status [data-status="succeeded"]').waitFor({ timeout: 40000 });
  result.attemptsAfterRetry = await attemptCodes();
  result.retryMessage = (await page.locator("#delivery-message").textContent()).trim();
  await shoot("17-delivery-retried");

  // 14. The endpoint: rotate its secret (the new one shown once), recover failed deliveries since yesterday.
  await page.locator("#delivery-endpoint").click();
  await page.locator("#rotate-secret").waitFor();
  await page.locator("#rotate-secret").click();
  await page.locator("#rotated-secret").waitFor();
  result.rotatedSecret = (await page.locator("#rotated-secret-value").textContent()).trim();
  result.focusAfterRotate = (await focusedElement(page)).id;
  await page.getByRole("button", { name: "Recover failed deliveries" }).click();
  await page.locator("#recover-result .notice").waitFor();
  result.recoverMessage = (await page.locator("#recover-result").textContent()).trim();
  await shoot("18-secret-rotated");

  // 15. Another endpoint, added and deleted.
  await nav("Webhooks", "Webhooks");
  await page.getByLabel("Endpoint URL").fill("https://spare.example/hooks");
  await page.getByLabel("subscription.expiring").check();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await page.locator("#open-new-endpoint").click();
  await page.locator("#delete-endpoint").waitFor();
  await page.locator("#delete-endpoint").click();
  await waitForHeading("Webhooks");
  await page.getByText("Deleted the endpoint https://spare.example/hooks.").waitFor();
  result.endpointRowsAfterDelete = await page.locator("#webhook-endpoints tbody tr").allTextContents();

  // 16. The webhook link paid: its page lists its events, newest first, each with its deliveries to the endpoint
  // (payment.created delivered on the retry, payment.completed at once); a delivery leads to its attempts. The
  // webhook routes allow 30 calls a minute: the events are read again only once the receiver has the delivery.
  await nav("Payment links", "Payment links");
  await page.getByRole("link", { name: "Webhook trigger" }).click();
  await page.locator("#payment-uri").waitFor();
  const triggerLink = paymentRequest((await page.locator("#payment-uri").textContent()).trim());
  await rpc("eth_sendTransaction", [{ from: payer, to: triggerLink.token, data: "0xa9059cbb"
    + triggerLink.to.slice(2).toLowerCase().padStart(64, "0") + BigInt(triggerLink.units).toString(16).padStart(64, "0") }]);
  for (let i = 0; i < 90 && !(await page.locator('#link-status[data-status="completed"]').count()); i++) {
    await rpc("anvil_mine", ["0x1"]);
    await page.waitForTimeout(1000);
  }
  await page.locator('#link-status[data-status="completed"]').waitFor({ timeout: 15000 });
  for (let i = 0; i < 60 && Number(await (await fetch(`${receiverControl}/calls`)).text()) < 3; i++) {
    await page.waitForTimeout(500);
  }
  const completedDelivered = '#link-events li[data-event-type="payment.completed"] [data-status="succeeded"]';
  for (let i = 0; i < 5 && !(await page.locator(completedDelivered).count()); i++) {
    await page.waitForTimeout(2000);
    await page.locator("#refresh-link-events").click();
    await page.locator("#link-events-count").waitFor();
  }
  await page.locator(completedDelivered).waitFor({ timeout: 5000 });
  result.linkEventsCount = (await page.locator("#link-events-count").textContent()).trim();
  result.linkEvents = await page.locator("#link-events li[data-event-type]").evaluateAll((items) => items.map(
    (item) => ({ type: item.dataset.eventType, rows: [...item.querySelectorAll("tbody tr")].map((row) =>
      row.textContent.replace(/\s+/g, " ").trim()), text: item.textContent.replace(/\s+/g, " ").trim() })));
  await axe("link-events");
  await shoot("19-link-events");
  await page.locator('#link-events li[data-event-type="payment.completed"] a[data-delivery]').first().click();
  await page.locator("#delivery-attempts").waitFor();
  result.linkEventDelivery = { path: new URL(page.url()).pathname,
    status: await page.locator("#delivery-status [data-status]").getAttribute("data-status") };

  // The API reference on the same origin renders under its strict policy: a violation is a console error.
  await page.goto(`${gateway}/docs`, { waitUntil: "load" });
  await page.locator(".opblock").first().waitFor({ timeout: 30000 });
  result.docsOperations = await page.locator(".opblock").count();
}, { reported });

/** The token, recipient and base units of an EIP-681 token transfer: ethereum:<token>@<chain>/transfer?address=…&uint256=…. */
function paymentRequest(uri) {
  const match = /^ethereum:(0x[0-9a-fA-F]{40})@\d+\/transfer\?address=(0x[0-9a-fA-F]{40})&uint256=(\d+)$/.exec(uri);
  if (!match) {
    throw new Error(`not a token payment request: ${uri}`);
  }
  return { token: match[1], to: match[2], units: match[3] };
}
