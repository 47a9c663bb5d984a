// Walks the dashboard's subscriptions views in Debian's Chromium, as a merchant with a browser wallet would: sign in,
// a new plan refused at a field, signing without a wallet, with a wallet on another network and declined in the wallet
// (4001), then signed (EIP-712, the dev wallet's eth_signTypedData_v4 answered by the dev chain) and created; the plan
// listed; a customer invited and the invitation's address copied; the customer subscribing on that page with its own
// wallet; the dashboard showing the subscription link active with its first payment; the plan deprecated; the overview
// listing that payment among the recent subscription payments; billing stopped (confirmed) and the subscription ended
// on chain from the merchant's wallet with the link's cancel_transaction. The merchant signs in with whatever key file it is
// given (the test gives an RSA key: every call signed with RSA-PSS-SHA256); the signature sizes seen are reported.
// axe-core checks the new pages; screenshots at desktop and phone widths (subscriptions-*.png).
//
//   node dashboard-subscriptions-walk.mjs <gateway_url> <rpc_url> <api_key> <key_file> <merchant_wallet>
//       <customer_wallet> <screenshot_dir>
//
// Both wallets are unlocked dev-chain accounts (walk-support.mjs's dev wallet); the customer's holds the plan's token.
// Prints one JSON line describing what it saw and exits non-zero on any failure (with what it saw so far).
import { mkdirSync } from "node:fs";
import { DESKTOP, dashboardWalk, merchantContext, pageChecks, recordPage, signIn } from "./dashboard-support.mjs";
import { devWallet, injectWallet, recordErrors, rpcClient } from "./walk-support.mjs";

const [gateway, rpcUrl, apiKey, keyFile, merchantWallet, customerWallet, screenshots] = process.argv.slice(2);
if (!screenshots) {
  console.error("usage: node dashboard-subscriptions-walk.mjs <gateway_url> <rpc_url> <api_key> <key_file> "
    + "<merchant_wallet> <customer_wallet> <screenshot_dir>");
  process.exit(2);
}
mkdirSync(screenshots, { recursive: true });

const PLAN_NAME = "Roast club <img src=x onerror=alert(1)>";
const CUSTOMER = "Grace <script>alert(2)</script>";
const rpc = rpcClient(rpcUrl);

/**
 * The merchant's wallet as the page sees it: the dev wallet, or (mode "wrong-network") one on chain 1 that cannot
 * switch, or (mode "decline") one whose owner declines the signature (4001).
 */
function merchantWalletOf(account) {
  const good = devWallet(rpc, account);
  const elsewhere = devWallet(rpc, account, { chainId: "0x1", canSwitch: false });
  const wallet = {
    mode: "good",
    calls: [],
    async answer(request) {
      wallet.calls.push(`${wallet.mode}:${request.method}`);
      if (wallet.mode === "decline" && request.method === "eth_signTypedData_v4") {
        return { error: { code: 4001, message: "User rejected the request." } };
      }
      return (wallet.mode === "wrong-network" ? elsewhere : good).answer(request);
    },
  };
  return wallet;
}

await dashboardWalk("dashboard subscriptions walk", { walletProblems: {} }, async (browser, result) => {
  const context = await merchantContext(browser, gateway);
  const page = await context.newPage();
  // Only the dashboard's own confirmations are expected (deprecating, stopping); anything else would be an injection.
  recordPage(page, result, { acceptConfirmations: true });
  const signatureBytes = new Set();
  page.on("request", (request) => {
    const signature = request.headers()["x-api-signature"];
    if (signature) {
      signatureBytes.add(Buffer.from(signature, "base64").length);
    }
  });
  const { waitForHeading, nav, shoot, axe } = pageChecks(page, result, screenshots, "subscriptions-");
  const walletProblem = async () => {
    await page.locator("#wallet-message[data-problem]").waitFor({ timeout: 15000 });
    return {
      problem: await page.locator("#wallet-message").getAttribute("data-problem"),
      text: (await page.locator("#wallet-message").textContent()).trim(),
    };
  };

  // 1. Sign in (remembered, so the session survives the reload that brings the wallet).
  await page.goto(`${gateway}/dashboard/subscriptions`, { waitUntil: "load" });
  await waitForHeading("Sign in");
  await signIn(page, apiKey, keyFile, { remember: true });
  await waitForHeading("Subscriptions");
  result.navCurrent = await page.locator('#nav a[aria-current="page"]').textContent();
  result.emptyList = (await page.locator("#results-heading").textContent()).trim();
  await axe("plans-empty");
  await shoot("1-plans-empty");

  // 2. A new plan without a wallet in the browser: said so, nothing asked.
  await page.getByRole("link", { name: "New plan" }).click();
  await waitForHeading("New subscription plan");
  await page.getByLabel("Name", { exact: true }).fill(PLAN_NAME);
  await page.getByLabel("Price per period").fill("2.5");
  await page.getByLabel("Currency").fill("USDC");
  await page.getByRole("button", { name: "Sign with your wallet" }).click();
  result.walletProblems.noWallet = await walletProblem();
  await shoot("2-no-wallet");

  // 3. With the merchant's wallet: a price the API refuses, shown at its field.
  const wallet = merchantWalletOf(merchantWallet);
  await injectWallet(page, wallet);
  await page.reload({ waitUntil: "load" });
  await waitForHeading("New subscription plan");
  await page.getByLabel("Name", { exact: true }).fill(PLAN_NAME);
  await page.getByLabel("Description (optional)").fill("Fresh beans every hour");
  await page.getByLabel("Price per period").fill("2.5.1");
  await page.getByLabel("Currency").fill("USDC");
  await page.getByLabel("Billed every", { exact: true }).fill("1");
  await page.getByLabel("Billed every: unit").selectOption({ label: "hours" });
  await page.getByLabel("Cancel after missed payments in a row (optional)").fill("3");
  await page.getByRole("button", { name: "Sign with your wallet" }).click();
  await page.locator('[data-error-for="value"]:not(:empty)').waitFor();
  result.valueError = await page.locator('[data-error-for="value"]').textContent();
  result.valueInvalid = await page.getByLabel("Price per period").getAttribute("aria-invalid");
  await axe("plan-new");
  await shoot("3-plan-refused");

  // 4. A wallet on another network that cannot switch, then a signature declined in the wallet: both said, no plan.
  await page.getByLabel("Price per period").fill("2.5");
  wallet.mode = "wrong-network";
  await page.getByRole("button", { name: "Sign with your wallet" }).click();
  result.walletProblems.wrongNetwork = await walletProblem();
  wallet.mode = "decline";
  await page.getByRole("button", { name: "Sign with your wallet" }).click();
  await page.waitForFunction(() => document.querySelector("#wallet-message")?.dataset.problem === "rejected",
    null, { timeout: 15000 });
  result.walletProblems.declined = await walletProblem();
  await shoot("4-signature-declined");

  // 5. Signed with the wallet (the dev chain signs for its unlocked account) and created.
  wallet.mode = "good";
  await page.getByRole("button", { name: "Sign with your wallet" }).click();
  await waitForHeading(PLAN_NAME, 30000);
  result.planUrl = page.url();
  result.planId = result.planUrl.split("/").pop();
  result.planStatus = await page.locator("#plan-status").getAttribute("data-status");
  result.planPrice = (await page.locator("#plan-price").textContent()).trim();
  result.planMerchant = (await page.locator("#plan-merchant").textContent()).trim();
  result.planDestination = (await page.locator("#plan-destination").textContent()).trim();
  result.walletCalls = wallet.calls;
  await axe("plan");
  await shoot("5-plan");

  // 6. Listed.
  await page.locator("main .breadcrumb a").click();
  await waitForHeading("Subscriptions");
  await page.locator("#results-heading").waitFor();
  result.listHeading = (await page.locator("#results-heading").textContent()).trim();
  result.listRows = await page.locator("main table tbody tr").allTextContents();
  await axe("plans");
  await shoot("6-plans");

  // 7. Invite a customer; copy the invitation's address.
  await page.locator(`main a[href="/dashboard/subscriptions/plans/${result.planId}"]`).click();
  await waitForHeading(PLAN_NAME);
  await page.getByLabel("Customer name (optional)").fill(CUSTOMER);
  await page.getByLabel("Customer e-mail (optional)").fill("not-an-address");
  await page.getByRole("button", { name: "Invite customer" }).click();
  await page.locator('[data-error-for="customer_email"]:not(:empty)').waitFor();
  result.emailError = await page.locator('[data-error-for="customer_email"]').textContent();
  await page.getByLabel("Customer e-mail (optional)").fill("grace@example.com");
  await page.getByRole("button", { name: "Invite customer" }).click();
  await page.locator("#new-invitation-url").waitFor();
  result.invitationUrl = await page.locator("#new-invitation-url").inputValue();
  await page.locator("#copy-new-invitation-url").click();
  result.copied = await page.evaluate(() => navigator.clipboard.readText());
  await page.locator('#subscribers tbody tr [data-status="invitation_sent"]').waitFor();
  result.subscriberRows = await page.locator("#subscribers tbody tr").allTextContents();
  result.rowInvitationUrl = await page.locator("#subscribers [data-invitation-url]").first()
    .getAttribute("data-invitation-url");
  result.totalSubscribers = (await page.locator("#total-subscribers").textContent()).trim();
  await axe("plan-invited");
  await shoot("7-invited");

  // 8. The customer subscribes on the invitation's page with its own wallet (approve, subscribe, enrol), active once
  //    the chain watcher has confirmed it (blocks mined meanwhile).
  {
    const customerContext = await browser.newContext({ viewport: DESKTOP });
    const customerPage = await customerContext.newPage();
    recordErrors(customerPage, result.consoleErrors);
    await injectWallet(customerPage, devWallet(rpc, customerWallet));
    await customerPage.goto(result.copied, { waitUntil: "load" });
    await customerPage.locator("#subscribe-with-wallet").click();
    const deadline = Date.now() + 90000;
    while ((await customerPage.locator("#state").getAttribute("data-state")) !== "active") {
      if (Date.now() > deadline) {
        throw new Error("the customer's subscription never became active; the page shows "
          + `${await customerPage.locator("#state").getAttribute("data-state")}: `
          + `${await customerPage.locator("#wallet-message").textContent().catch(() => "")}`);
      }
      await rpc("anvil_mine", ["0x1"]);
      await customerPage.waitForTimeout(500);
    }
    result.customerPageState = "active";
    await customerContext.close();
  }

  // 9. The dashboard: the subscriber active, its link active with the first payment.
  await page.reload({ waitUntil: "load" });
  await waitForHeading(PLAN_NAME);
  await page.locator('#subscribers tbody tr [data-status="active"]').waitFor();
  result.activeSubscribers = (await page.locator("#active-subscribers").textContent()).trim();
  await nav("Subscriptions", "Subscriptions");
  await page.getByRole("navigation", { name: "Subscriptions" }).getByRole("link", { name: "Subscription links" })
    .click();
  await waitForHeading("Subscription links");
  await page.locator("main table tbody tr").first().waitFor();
  result.linkRows = await page.locator("main table tbody tr").allTextContents();
  await axe("links");
  await shoot("8-links");
  await page.getByRole("link", { name: CUSTOMER }).first().click();
  await waitForHeading(CUSTOMER);
  await page.locator('#subscription-state[data-state="active"]').waitFor({ timeout: 30000 });
  result.linkId = page.url().split("/").pop();
  result.linkState = await page.locator("#subscription-state").getAttribute("data-state");
  result.linkPaidPeriods = (await page.locator("#paid-periods").textContent()).trim();
  result.linkWallet = (await page.locator("#link-wallet").textContent()).trim();
  result.linkPayments = await page.locator("#link-payments tbody tr").allTextContents();
  result.linkPaymentHash = await page.locator("#link-payments [data-tx-hash]").first().getAttribute("data-tx-hash");
  await axe("link");
  await shoot("9-link-active");

  // 10. Deprecate the plan (confirmed): no new invitations.
  await page.locator("#subscription-link a[href^='/dashboard/subscriptions/plans/']").click();
  await waitForHeading(PLAN_NAME);
  await page.locator("#deprecate-plan").click();
  await page.locator('#plan-status[data-status="deprecated"]').waitFor();
  result.deprecatedStatus = await page.locator("#plan-status").getAttribute("data-status");
  result.inviteFormAfterDeprecation = await page.locator("#invite-form").count();
  result.deprecateButtonHidden = await page.locator("#deprecate-plan").isHidden();
  await shoot("10-deprecated");

  // 11. The overview: the customer's payment among the recent subscription payments; no payment link paid yet.
  await page.goto(`${gateway}/dashboard`, { waitUntil: "load" });
  await waitForHeading("Overview");
  await page.locator("#recent-subscription-payments tbody tr").first().waitFor();
  result.overviewSubscriptionPayments = await page.locator("#recent-subscription-payments tbody tr")
    .allTextContents();
  result.overviewReceived = (await page.locator("#totals-none").textContent()).trim();
  result.overviewPayments = (await page.locator("#recent-payments p").first().textContent()).trim();
  await axe("overview");
  await shoot("11-overview");

  // 12. Stop billing the link (confirmed): the page offers the contract's cancel; the merchant's wallet (the plan's
  //     merchant address) sends it, and the link shows ended once the chain watcher confirms it (blocks mined).
  await page.goto(`${gateway}/dashboard/subscriptions/links/${result.linkId}`, { waitUntil: "load" });
  await waitForHeading(CUSTOMER);
  await page.locator("#stop-billing").click();
  await page.locator('#subscription-state[data-state="stopped"]').waitFor({ timeout: 15000 });
  result.stoppedCalldata = (await page.locator("#cancel-calldata").textContent()).trim();
  result.stopButtonAfterStop = await page.locator("#stop-billing").count();
  result.nextPaymentAfterStop = (await page.locator("#next-payment").textContent()).trim();
  await axe("link-stopped");
  await shoot("12-link-stopped");
  await page.locator("#end-on-chain").click();
  await page.locator("#end-message .notice.success").waitFor({ timeout: 30000 });
  result.endMessage = (await page.locator("#end-message").textContent()).trim();
  {
    const deadline = Date.now() + 90000;
    while ((await page.locator("#subscription-state").getAttribute("data-state")) !== "ended") {
      if (Date.now() > deadline) {
        throw new Error("the link never showed ended; it shows "
          + `${await page.locator("#subscription-state").getAttribute("data-state")}`);
      }
      await rpc("anvil_mine", ["0x1"]);
      await page.waitForTimeout(1000);
    }
  }
  result.endedState = (await page.locator("#subscription-state").textContent()).trim();
  result.endButtonAfterEnd = await page.locator("#end-on-chain").count();
  await shoot("13-link-ended");

  // Every signed call of the walk: the bytes of its X-API-Signature (256 for RSA-PSS with a 2048-bit key, 64 for
  // Ed25519).
  result.signatureBytes = [...signatureBytes];
});
