// Walks a payment link's money in the dashboard (link-money.js), in Debian's Chromium, as a merchant would: sign in
// on the link's page; a full payment that arrived after the link was cancelled shown "Late" (and the deposit
// address's gas shown as another asset, not counted); "Accept as payment" completes the link; a refund above what
// was received refused at its field; the link's money refunded, its payment request copied; the page then follows
// the refund until the chain confirms it (the test's Java side pays it from the deposit address meanwhile).
// axe-core checks each state; screenshots at desktop and phone widths (money-*.png).
//
//   node dashboard-money-walk.mjs <gateway_url> <api_key> <key_file> <link_id> <screenshot_dir>
//
// Prints one JSON line describing what it saw and exits non-zero on any failure (with what it saw so far).
import { mkdirSync } from "node:fs";
import { dashboardWalk, merchantContext, pageChecks, recordPage, signIn } from "./dashboard-support.mjs";

const [gateway, apiKey, keyFile, linkId, screenshots] = process.argv.slice(2);
if (!screenshots) {
  console.error("usage: node dashboard-money-walk.mjs <gateway_url> <api_key> <key_file> <link_id> <screenshot_dir>");
  process.exit(2);
}
mkdirSync(screenshots, { recursive: true });

const LINK_NAME = "Late beans <img src=x onerror=alert(1)>";

await dashboardWalk("dashboard money walk", {}, async (browser, result) => {
  const context = await merchantContext(browser, gateway);
  const page = await context.newPage();
  // One step asks for a dialog (the refund to a look-alike address, declined); anything else would be an injection.
  recordPage(page, result, { acceptConfirmations: false });
  const { waitForHeading, shoot, axe } = pageChecks(page, result, screenshots, "money-");

  const text = async (selector) => (await page.locator(selector).first().textContent()).replace(/\s+/g, " ").trim();
  const rows = async (selector) => (await page.locator(selector).allTextContents())
    .map((row) => row.replace(/\s+/g, " ").trim());

  // 1. Sign in on the link's own address; the cancelled link shows its full payment as late, and the gas as another
  // asset, neither counted.
  await page.goto(`${gateway}/dashboard/links/${linkId}`, { waitUntil: "load" });
  await waitForHeading("Sign in");
  await signIn(page, apiKey, keyFile);
  await waitForHeading(LINK_NAME);
  result.heading = await page.locator("main h1").textContent();
  result.markupElements = await page.locator("main h1 *").count();
  await page.locator("#link-payments .accept-late").waitFor();
  result.statusBefore = await page.locator("#link-status").getAttribute("data-status");
  result.receivedBefore = await text("#received");
  result.lateRows = await rows("#link-payments tbody tr:has([data-late])");
  result.otherAssetRows = await rows("#link-payments tbody tr:has(.other-asset)");
  result.acceptButtons = await page.locator("#link-payments .accept-late").count();
  result.noRefunds = await text("#refund-list");
  await axe("late");
  await shoot("1-late");

  // 2. Accept the late payment as a use: the link completes in the page.
  await page.getByRole("button", { name: "Accept as payment" }).click();
  await page.locator('#link-status[data-status="completed"]').waitFor({ timeout: 15000 });
  result.statusAfterAccept = await page.locator("#link-status").getAttribute("data-status");
  result.acceptMessage = await text("#transfer-message");
  result.acceptButtonsAfter = await page.locator("#link-payments .accept-late").count();
  result.receivedAfterAccept = await text("#received");
  result.acceptedRows = await rows("#link-payments tbody tr:has(.status-accepted)");
  await shoot("2-accepted");

  // 3. A refund above what was received: the API's refusal at the amount.
  await page.getByLabel("Amount (optional)").fill("11");
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  await page.locator('#refund-form [data-error-for="amount"]:not(:empty)').waitFor({ timeout: 15000 });
  result.amountError = await text('#refund-form [data-error-for="amount"]');
  result.amountInvalid = await page.getByLabel("Amount (optional)").getAttribute("aria-invalid");
  result.refusedFocus = await page.evaluate(() => document.activeElement?.name ?? null);
  await axe("refund-refused");
  await shoot("3-refund-refused");

  // 4a. Address poisoning: a refund to an address that never paid the link is checked with the merchant first;
  // declining sends nothing.
  await page.getByLabel("Amount (optional)").fill("");
  await page.getByLabel("To address (optional)").fill("0x70997970C51812dc3A010C7d01b50e0d17dc79C9");
  // recordPage dismisses it (and records it in result.dialogs).
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  await page.waitForFunction(() => document.activeElement?.name === "address");
  result.refundsAfterPoison = await page.locator("#refund-list tbody tr").count();
  await page.getByLabel("To address (optional)").fill("");

  // 4. The link's money refunded: the payment request shown with what to do, and copied.
  result.refundChoices = await page.getByLabel("What to refund").locator("option").allTextContents();
  await page.getByLabel("What to refund").selectOption({ index: 0 });
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  await page.locator("#refund-payment-uri").waitFor({ timeout: 15000 });
  result.paymentUri = await page.locator("#refund-payment-uri").inputValue();
  result.instructions = await text("#refund-instructions");
  await page.locator("#refund-created").getByRole("button", { name: "Copy", exact: true }).click();
  await page.locator("#refund-created").getByText("Copied.").waitFor();
  result.copied = await page.evaluate(() => navigator.clipboard.readText());
  await page.locator("#refund-list [data-status=initiated]").waitFor({ timeout: 15000 });
  result.initiatedRows = await rows("#refund-list tbody tr");
  await axe("refund-asked");
  await shoot("4-refund-asked");

  // 5. The test's Java side pays it from the deposit address: the page, reading the link every 5 s while the refund
  // is open, shows it completed.
  await page.locator("#refund-list [data-status=completed]").waitFor({ timeout: 60000 });
  result.completedRows = await rows("#refund-list tbody tr");
  result.receivedAfterRefund = await text("#received");
  result.payRequestAfterRefund = await page.locator("#refund-created > *").count();
  result.transferRowsAfterRefund = await rows("#link-payments tbody tr");
  await axe("refund-completed");
  await shoot("5-refund-completed");
});
