// What the browser walks share (checkout-walk.mjs, subscribe-walk.mjs): the dev chain's JSON-RPC, a dev wallet
// answered in Node, Debian's Chromium, and the wallet injected into a page.
//
// The "wallet" is an EIP-1193 provider injected before the page loads (and announced with EIP-6963). Its requests
// are answered in Node (exposeFunction), not in the page, so the page's Content-Security-Policy stays as strict as in
// production: eth_requestAccounts answers the wallet's account, wallet_switchEthereumChain checks the chain,
// everything else (eth_sendTransaction included) goes to the dev chain, whose dev accounts are unlocked. Answers
// travel as {result} or {error: {code, message, data}}, so the page sees a wallet's error codes and revert data as a
// real wallet gives them.
import { chromium } from "playwright-core";

/** A JSON-RPC client of the dev chain: rpc(method, params) answers the result or throws {code, data}. */
export function rpcClient(rpcUrl) {
  let rpcId = 0;
  return async function rpc(method, params = []) {
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
  };
}

/**
 * A wallet for one browser context: its account, and the chain it says it is on (null: the dev chain's); canSwitch
 * false makes it refuse every chain switch (code 4902). calls lists each method the page asked for.
 */
export function devWallet(rpc, account, { chainId = null, canSwitch = true } = {}) {
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

/** Debian's Chromium (or $CHROMIUM), headless, without a sandbox or background traffic. */
export function launchChromium() {
  return chromium.launch({
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
}

/** Injects the wallet into every document the page loads from now on, as window.ethereum and by EIP-6963. */
export async function injectWallet(page, wallet) {
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

/** Collects the page's console errors and uncaught exceptions into errors. */
export function recordErrors(page, errors) {
  page.on("console", (message) => message.type() === "error"
    && errors.push(message.text() + " (" + (message.location().url || "?") + ")"));
  page.on("pageerror", (error) => errors.push(String(error)));
}

/**
 * Moves the keyboard focus with key ("Tab" or "Shift+Tab") until matches(focused) holds, where focused is
 * {tag, id, name, role, checked, landmark}: name is what a screen reader would read (aria-label, the label, the
 * text, the alt), landmark the enclosing nav, main or header (its aria-label, else its tag). Every stop passed is pushed onto stops as "tag: name"; after max stops without a match it throws, naming them.
 */
export async function tabTo(page, key, matches, stops = [], max = 40) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const focused = await page.evaluate(() => {
      const element = document.activeElement;
      if (!element || element === document.body) {
        return null;
      }
      const label = element.labels?.[0]?.textContent;
      const name = element.getAttribute("aria-label") ?? label ?? element.getAttribute("alt") ?? element.textContent;
      const landmark = element.closest("nav, main, header");
      return { tag: element.tagName.toLowerCase(), id: element.id, name: (name ?? "").replace(/\s+/g, " ").trim(),
        role: element.getAttribute("role"), checked: element.checked ?? null,
        landmark: landmark ? landmark.getAttribute("aria-label") ?? landmark.tagName.toLowerCase() : null };
    });
    if (focused) {
      stops.push(`${focused.tag}: ${focused.name}`);
      if (matches(focused)) {
        return focused;
      }
    }
  }
  throw new Error(`${key} never reached the element looked for; stops: ${JSON.stringify(stops)}`);
}

/** What has the focus now: {tag, id, name} (name: its text, trimmed). */
export function focusedElement(page) {
  return page.evaluate(() => {
    const element = document.activeElement;
    return { tag: element?.tagName.toLowerCase(), id: element?.id ?? "",
      name: (element?.textContent ?? "").replace(/\s+/g, " ").trim() };
  });
}
