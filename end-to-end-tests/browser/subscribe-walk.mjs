// Subscribes from the subscribe page (subscription_link_url) in Debian's Chromium, as a customer with a browser wallet
// would, follows the subscription through a second payment and cancels it.
//
//   node subscribe-walk.mjs <subscribe_url> <rpc_url> <wallet> <empty_wallet> <keeper> <interval_seconds> <screenshot_dir>
//
// The "wallet" is walk-support.mjs's dev wallet, injected before the page loads; each browser context gets its own
// (an account, the chain it says it is on, whether it can switch), and it passes a wallet's error codes and revert
// data to the page as a real wallet does.
//
// Walks, in order: the page without JavaScript; a wallet on another network that cannot switch; a wallet without
// the token; then the real enrolment (approve, subscribe, enrol, confirmed by the chain watcher once blocks are
// mined), a second period collected after moving the chain's time (collect(id) sent from <keeper>), and the
// cancellation from the wallet. Screenshots at desktop and phone widths go to <screenshot_dir>. Prints one JSON line
// describing what it saw and exits non-zero on any failure (with the page's state in the message).
import { mkdirSync } from "node:fs";
import { devWallet, injectWallet, launchChromium, recordErrors, rpcClient } from "./walk-support.mjs";

const [pageUrl, rpcUrl, walletAccount, emptyAccount, keeper, intervalText, screenshots] = process.argv.slice(2);
if (!screenshots) {
  console.error("usage: node subscribe-walk.mjs <subscribe_url> <rpc_url> <wallet> <empty_wallet> <keeper> "
    + "<interval_seconds> <screenshot_dir>");
  process.exit(2);
}
mkdirSync(screenshots, { recursive: true });
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const COLLECT = "0x497777d5"; // collect(bytes32)

const rpc = rpcClient(rpcUrl);

async function mine(blocks = 1) {
  await rpc("anvil_mine", ["0x" + blocks.toString(16)]);
}

const browser = await launchChromium();
const result = { states: [], problems: {}, dialogs: [], consoleErrors: [], failedRequests: [] };

async function open(viewport, wallet, { javaScript = true } = {}) {
  const context = await browser.newContext({ viewport, javaScriptEnabled: javaScript });
  const page = await context.newPage();
  recordErrors(page, result.consoleErrors);
  page.on("response", (response) => response.status() >= 400
    && result.failedRequests.push(response.status() + " " + response.request().method() + " " + response.url()));
  page.on("dialog", (dialog) => {
    result.dialogs.push(dialog.message());
    dialog.dismiss();
  });
  if (wallet) {
    await injectWallet(page, wallet);
  }
  await page.goto(pageUrl, { waitUntil: "load" });
  return { context, page };
}

const stateOf = (page) => page.locator("#state").getAttribute("data-state");

async function waitForState(page, wanted, { mineWhileWaiting = false, timeout = 60000 } = {}) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    if ((await stateOf(page)) === wanted) {
      result.states.push(wanted);
      return;
    }
    if (mineWhileWaiting) {
      await mine(1);
    }
    await page.waitForTimeout(500);
  }
  throw new Error(`waited for ${wanted}, page shows ${await stateOf(page)}`);
}

async function waitForProblem(page, selector) {
  const message = page.locator(selector + "[data-problem]:not([hidden])");
  await message.waitFor({ state: "visible", timeout: 20000 });
  await page.waitForFunction((css) => {
    const element = document.querySelector(css);
    return element && element.dataset.problem && element.classList.contains("error");
  }, selector, { timeout: 20000 });
  return { problem: await message.getAttribute("data-problem"), text: (await message.textContent()).trim() };
}

async function shoot(page, name, viewports = [DESKTOP, PHONE]) {
  for (const viewport of viewports) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `${screenshots}/${name}-${viewport === PHONE ? "phone" : "desktop"}.png`,
      fullPage: true });
  }
}

/** Whether any element is wider than the viewport (something that would overflow on a phone). */
async function overflows(page) {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
}

try {
  // 1. Without JavaScript: the terms and everything needed to subscribe by hand.
  {
    const { context, page } = await open(DESKTOP, null, { javaScript: false });
    result.noScript = {
      state: await stateOf(page),
      byHandOpen: await page.locator("#by-hand").evaluate((details) => details.open),
      approveCalldata: (await page.locator("#calldata-approve").textContent()).trim(),
      formVisible: await page.locator("#enrol-form").isVisible(),
      walletButtonHidden: await page.locator("#subscribe-with-wallet").isHidden(),
    };
    await shoot(page, "0-no-javascript");
    await context.close();
  }

  // 2. A wallet on another network that does not know this one: nothing is sent.
  {
    const wallet = devWallet(rpc, walletAccount, { chainId: "0x1", canSwitch: false });
    const { context, page } = await open(PHONE, wallet);
    await page.locator("#subscribe-with-wallet").click();
    result.problems.wrongNetwork = await waitForProblem(page, "#wallet-message");
    result.problems.wrongNetwork.sent = wallet.calls.includes("eth_sendTransaction");
    await shoot(page, "2-wrong-network", [PHONE]);
    await context.close();
  }

  // 3. A wallet without the token: refused before anything is sent.
  {
    const wallet = devWallet(rpc, emptyAccount);
    const { context, page } = await open(PHONE, wallet);
    await page.locator("#subscribe-with-wallet").click();
    result.problems.insufficientBalance = await waitForProblem(page, "#wallet-message");
    result.problems.insufficientBalance.sent = wallet.calls.includes("eth_sendTransaction");
    await shoot(page, "3-insufficient-balance", [PHONE]);
    await context.close();
  }

  // 4. The real enrolment.
  const wallet = devWallet(rpc, walletAccount);
  const { page } = await open(DESKTOP, wallet);
  await waitForState(page, "invitation");
  result.invitation = {
    planName: (await page.locator("#plan-name").textContent()).trim(),
    merchantName: (await page.locator("#merchant-name").textContent()).trim(),
    description: (await page.locator("#description").textContent()).trim(),
    customer: (await page.locator("#customer").textContent()).trim(),
    price: (await page.locator("#price").textContent()).trim(),
    interval: (await page.locator("#term-interval").textContent()).trim(),
    trial: (await page.locator("#term-trial").textContent()).trim(),
    signature: await page.locator("#signature").getAttribute("data-verified"),
    network: (await page.locator("#network").textContent()).trim(),
    byHandOpen: await page.locator("#by-hand").evaluate((details) => details.open),
  };
  await shoot(page, "1-invitation");
  await page.setViewportSize(PHONE);
  result.invitation.phoneOverflows = await overflows(page);
  await page.setViewportSize(DESKTOP);

  await page.locator("#subscribe-with-wallet").click();
  // Pending until the chain watcher has its confirmations (a block mined by anyone else may bring them at once).
  await page.waitForSelector('#state[data-state="pending"], #state[data-state="active"]', { timeout: 60000 })
    .catch(async (error) => {
      const problem = await page.locator("#wallet-message").textContent().catch(() => "");
      throw new Error(`waited for pending, page shows ${await stateOf(page)} (${problem}): ${error.message}`);
    });
  if ((await stateOf(page)) === "pending") {
    result.states.push("pending");
    result.pendingMessage = (await page.locator("#page-message").textContent()).trim();
    await shoot(page, "4-pending", [DESKTOP]);
  }
  await waitForState(page, "active", { mineWhileWaiting: true, timeout: 90000 });
  result.announced = (await page.locator("#announcer").textContent()).trim();
  const subscriptionId = await page.locator("#subscription").getAttribute("data-chain-subscription-id");
  result.active = {
    paidPeriods: await page.locator("#state").getAttribute("data-paid-periods"),
    payments: await page.locator("tr.payment").count(),
    nextBilling: await page.locator("#next-billing").getAttribute("datetime"),
    subscriptionId,
  };
  await shoot(page, "5-active");
  await page.setViewportSize(PHONE);
  result.active.phoneOverflows = await overflows(page);
  await page.setViewportSize(DESKTOP);

  // 5. The next period: move the chain's clock past it and collect it (anyone may; a keeper may be faster).
  await rpc("evm_increaseTime", [Number(intervalText)]);
  await mine(1);
  const collect = await rpc("eth_sendTransaction", [{ from: keeper, to: await page.locator("#subscription")
    .getAttribute("data-contract"), data: COLLECT + subscriptionId.slice(2) }]);
  result.collectTransaction = collect;
  const deadline = Date.now() + 90000;
  while ((await page.locator("#state").getAttribute("data-payments")) !== "2") {
    if (Date.now() > deadline) {
      throw new Error("the second payment never showed; the page lists "
        + (await page.locator("#state").getAttribute("data-payments")));
    }
    await mine(1);
    await page.waitForTimeout(500);
  }
  result.second = {
    paidPeriods: await page.locator("#state").getAttribute("data-paid-periods"),
    transactions: await page.locator("tr.payment").evaluateAll((rows) => rows.map((row) => row.dataset.txHash)),
  };
  await shoot(page, "6-second-payment");

  // 6. Cancel from the wallet; the page shows it once the chain watcher reported the contract's Cancelled.
  await page.locator("#cancel-subscription").click();
  await page.locator("#cancel-message.success").waitFor({ state: "visible", timeout: 30000 });
  result.cancelMessage = (await page.locator("#cancel-message").textContent()).trim();
  await waitForState(page, "cancelled", { mineWhileWaiting: true, timeout: 90000 });
  result.cancelled = {
    terminal: await page.locator("#state").getAttribute("data-terminal"),
    cancelButtons: await page.locator("#cancel-subscription").count(),
    payments: await page.locator("tr.payment").count(),
  };
  await shoot(page, "7-cancelled");
  result.walletCalls = wallet.calls;
  console.log(JSON.stringify(result));
} catch (error) {
  console.error(`subscribe walk failed: ${error.message}`);
  console.error(JSON.stringify(result));
  process.exitCode = 1;
} finally {
  await browser.close();
}
