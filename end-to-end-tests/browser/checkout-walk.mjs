// Pays a payment link from its checkout page in Debian's Chromium, as a customer with a browser wallet would.
//
//   node checkout-walk.mjs <payment_url> <rpc_url> <payer_address> <screenshot_dir>
//
// The "wallet" is walk-support.mjs's dev wallet, injected before the page loads: the payer's account, everything it
// sends goes to the dev chain. Between steps the script mines blocks so the payment gains confirmations. It prints
// one JSON line describing what it saw and exits non-zero on any failure (with the page's state in the message).
import { mkdirSync } from "node:fs";
import { devWallet, injectWallet, launchChromium, recordErrors, rpcClient } from "./walk-support.mjs";

const [paymentUrl, rpcUrl, payer, screenshots] = process.argv.slice(2);
if (!screenshots) {
  console.error("usage: node checkout-walk.mjs <payment_url> <rpc_url> <payer_address> <screenshot_dir>");
  process.exit(2);
}
mkdirSync(screenshots, { recursive: true });

const rpc = rpcClient(rpcUrl);
const wallet = devWallet(rpc, payer);
const browser = await launchChromium();
const result = { states: [], walletCalls: wallet.calls };
try {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } }); // a phone
  // The merchant's success_url: answered here, so the redirect after payment can be seen offline.
  await context.route("https://shop.example/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<h1>Thanks for your order</h1>" }),
  );
  const page = await context.newPage();
  const consoleErrors = [];
  recordErrors(page, consoleErrors);
  await injectWallet(page, wallet);

  const state = () => page.locator("#state").getAttribute("data-state");
  const waitForState = async (wanted, timeout = 30000) => {
    await page.waitForSelector(`#state[data-state="${wanted}"]`, { timeout }).catch(async (error) => {
      throw new Error(`waited for ${wanted}, page shows ${await state()}: ${error.message}`);
    });
    result.states.push(wanted);
  };

  await page.goto(paymentUrl, { waitUntil: "load" });
  await waitForState("awaiting_payment");
  result.amount = (await page.locator("#amount").textContent()).trim();
  result.currency = (await page.locator("#currency").textContent()).trim();
  result.depositAddress = (await page.locator("#deposit-address").textContent()).trim();
  result.paymentUri = await page.locator("#payment-uri").getAttribute("href");
  result.qrVisible = await page.locator("#qr-code svg, svg#qr-code").first().isVisible();
  result.announcer = await page.locator("#announcer").getAttribute("aria-live");
  await page.screenshot({ path: `${screenshots}/1-awaiting-payment.png`, fullPage: true });

  const pay = page.locator("#pay-with-wallet");
  await pay.waitFor({ state: "visible", timeout: 10000 });
  await pay.click();
  // The wallet's notice names the transaction without overflowing its box (it may be replaced at once when the
  // page moves to detected, so it is measured only when caught).
  const sent = page.locator("#wallet-message.success");
  if (await sent.waitFor({ state: "visible", timeout: 3000 }).then(() => true, () => false)) {
    result.sentMessage = await sent.evaluate((message) => ({
      text: message.textContent.trim(),
      overflows: message.scrollWidth > message.clientWidth + 1,
      transaction: message.dataset.transaction,
    })).catch(() => undefined);
  }
  await waitForState("detected");
  result.confirmationsShown = await page.locator("#state").getAttribute("data-confirmations");
  await page.screenshot({ path: `${screenshots}/2-detected.png`, fullPage: true });

  for (let i = 0; i < 20 && (await state()) !== "paid"; i++) {
    await rpc("anvil_mine", ["0x1"]);
    await page.waitForTimeout(500);
  }
  await waitForState("paid");
  result.announced = (await page.locator("#announcer").textContent()).trim();
  await page.screenshot({ path: `${screenshots}/3-paid.png`, fullPage: true });
  await page.waitForURL("https://shop.example/**", { timeout: 20000 });
  result.redirectedTo = page.url();
  result.consoleErrors = consoleErrors;
  console.log(JSON.stringify(result));
} catch (error) {
  console.error(`checkout walk failed: ${error.message}`);
  console.error(JSON.stringify(result));
  process.exitCode = 1;
} finally {
  await browser.close();
}
