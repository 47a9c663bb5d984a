// Subscribes from the subscribe page (subscription_link_url) in Debian's Chromium, as a customer with a browser wallet
// would, follows the subscription through a second payment and cancels it.
//
//   node subscribe-walk.mjs <subscribe_url> <rpc_url> <wallet> <empty_wallet> <keeper> <interval_seconds> <screenshot_dir>
//
// The "wallet" is an EIP-1193 provider injected before the page loads (and announced with EIP-6963). Its requests
// are answered in Node (exposeFunction), not in the page, so the page's Content-Security-Policy stays as strict as in
// production: eth_requestAccounts answers the walk's account, wallet_switchEthereumChain checks the chain, everything
// else (eth_sendTransaction included) goes to the dev chain, whose dev accounts are unlocked. Answers travel as
// {result} or {error: {code, message, data}}, so the page sees a wallet's error codes and revert data as a real
// wallet gives them.
//
// Walks, in order: the page without JavaScript; a wallet on another network that cannot switch; a wallet without
// the token; then the real enrolment (approve, subscribe, enrol, confirmed by the chain watcher once blocks are
// mined), a second period collected after moving the chain's time (collect(id) sent from <keeper>), and the
// cancellation from the wallet. Screenshots at desktop and phone widths go to <screenshot_dir>. Prints one JSON line
// describing what it saw and exits non-zero on any failure (with the page's state in the message).
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";

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

let rpcId = 0;
async function rpc(method, params = []) {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method, params }),
  });
  const reply = await response.json();
  if (reply.error) {
    throw Object.assign(new Error(reply.error.message), { code: reply.error.code, data: reply.error.data });
  }
  return reply.result;
}

async function mine(blocks = 1) {
  await rpc("anvil_mine", ["0x" + blocks.toString(16)]);
}

/** A wallet for one browser context: its account, and the chain it says it is on (null: the dev chain's). */
function walletOf(account, { chainId = null, canSwitch = true } = {}) {
  const calls = [];
  const handle = async ({ method, params }) => {
    calls.push(method);
    switch (method) {
      case "eth_requestAccounts":
      case "eth_accounts":
        return [account];
      case "eth_chainId":
        return chainId ?? rpc("eth_chainId");
      case "wallet_switchEthereumChain": {
        if (!canSwitch) {
          throw Object.assign(new Error("Unrecognized chain ID " + params[0].chainId), { code: 4902 });
        }
        const actual = await rpc("eth_chainId");
        if (BigInt(params[0].chainId) !== BigInt(actual)) {
          throw Object.assign(new Error("Unrecognized chain"), { code: 4902 });
        }
        chainId = null;
        return null;
      }
      case "eth_sendTransaction":
        return rpc(method, [{ ...params[0], from: account }]);
      default:
        return rpc(method, params ?? []);
    }
  };
  return {
    calls,
    async answer(request) {
      try {
        return { result: await handle(request) };
      } catch (error) {
        return { error: { code: error.code ?? -32603, message: error.message, data: error.data } };
      }
    },
  };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
  ],
});
const result = { states: [], problems: {}, dialogs: [], consoleErrors: [], failedRequests: [] };

async function open(viewport, wallet, { javaScript = true } = {}) {
  const context = await browser.newContext({ viewport, javaScriptEnabled: javaScript });
  const page = await context.newPage();
  page.on("console", (message) => message.type() === "error"
    && result.consoleErrors.push(message.text() + " (" + (message.location().url || "?") + ")"));
  page.on("pageerror", (error) => result.consoleErrors.push(String(error)));
  page.on("response", (response) => response.status() >= 400
    && result.failedRequests.push(response.status() + " " + response.request().method() + " " + response.url()));
  page.on("dialog", (dialog) => {
    result.dialogs.push(dialog.message());
    dialog.dismiss();
  });
  if (wallet) {
    await page.exposeFunction("__devWallet", (request) => wallet.answer(request));
    await page.addInitScript(() => {
      const provider = {
        isDevWallet: true,
        request: (request) => window.__devWallet({ method: request.method, params: request.params }).then((reply) => {
          if (reply.error) {
            throw Object.assign(new Error(reply.error.message), reply.error);
          }
          return reply.result;
        }),
        on: () => provider,
        removeListener: () => provider,
      };
      window.ethereum = provider;
      const info = { uuid: "0b7f7c7e-dev-wallet", name: "Dev wallet", icon: "data:image/svg+xml,<svg/>",
        rdns: "dev.cryptopay.test" };
      const announce = () =>
        window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }));
      window.addEventListener("eip6963:requestProvider", announce);
      announce();
    });
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
    const wallet = walletOf(walletAccount, { chainId: "0x1", canSwitch: false });
    const { context, page } = await open(PHONE, wallet);
    await page.locator("#subscribe-with-wallet").click();
    result.problems.wrongNetwork = await waitForProblem(page, "#wallet-message");
    result.problems.wrongNetwork.sent = wallet.calls.includes("eth_sendTransaction");
    await shoot(page, "2-wrong-network", [PHONE]);
    await context.close();
  }

  // 3. A wallet without the token: refused before anything is sent.
  {
    const wallet = walletOf(emptyAccount);
    const { context, page } = await open(PHONE, wallet);
    await page.locator("#subscribe-with-wallet").click();
    result.problems.insufficientBalance = await waitForProblem(page, "#wallet-message");
    result.problems.insufficientBalance.sent = wallet.calls.includes("eth_sendTransaction");
    await shoot(page, "3-insufficient-balance", [PHONE]);
    await context.close();
  }

  // 4. The real enrolment.
  const wallet = walletOf(walletAccount);
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
