// Walks the dashboard's remembered session in Debian's Chromium (session.js; the sign-in's "Remember on this device"
// with its period; the Developers page's "This device"): the period shown once "remember" is ticked, 30 days unless
// chosen; remembered across a reload; still there 29 days later, erased (the sign-in page saying so) past 30; a
// period of one day chosen and over; a stored period longer than 90 days capped; a tab left open past the period
// signed out at its next view (the page's clock moved on); "Forget this device" declined (nothing changes), then
// confirmed with the keyboard: erased at once, signed out here and in another open tab. The rules of session.js are
// checked in the page too. The stored entry is read and moved back in time in the page's IndexedDB, as the dashboard
// keeps it. axe-core checks the new states; screenshots at desktop and phone widths (remember-*.png).
//
//   node dashboard-remember-walk.mjs <gateway_url> <api_key> <key_file> <screenshot_dir>
//
// Prints one JSON line describing what it saw and exits non-zero on any failure (with what it saw so far).
import { mkdirSync } from "node:fs";
import { dashboardWalk, merchantContext, pageChecks, recordPage } from "./dashboard-support.mjs";
import { focusedElement } from "./walk-support.mjs";

const [gateway, apiKey, keyFile, screenshots] = process.argv.slice(2);
if (!screenshots) {
  console.error("usage: node dashboard-remember-walk.mjs <gateway_url> <api_key> <key_file> <screenshot_dir>");
  process.exit(2);
}
mkdirSync(screenshots, { recursive: true });

const DAY = 24 * 60 * 60 * 1000;

/** In the page: the remembered entry as the dashboard stores it (IndexedDB), described; null when there is none. */
function readEntry() {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open("cryptopay-dashboard", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("session");
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const transaction = db.transaction("session", "readonly");
      const request = transaction.objectStore("session").get("current");
      transaction.oncomplete = () => {
        db.close();
        const entry = request.result;
        resolve(entry ? { apiKey: entry.apiKey, savedAt: entry.savedAt ?? null, days: entry.days ?? null,
          age: Date.now() - entry.savedAt, keyType: entry.key?.constructor?.name ?? null,
          extractable: entry.key?.extractable ?? null } : null);
      };
      transaction.onerror = () => reject(transaction.error);
    };
  });
}

/** In the page: the remembered entry remembered back milliseconds earlier (and with days, when given). */
function rewriteEntry({ back, days }) {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open("cryptopay-dashboard", 1);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const transaction = db.transaction("session", "readwrite");
      const store = transaction.objectStore("session");
      const read = store.get("current");
      read.onsuccess = () => {
        if (!read.result) {
          transaction.abort();
          return;
        }
        store.put({ ...read.result, savedAt: read.result.savedAt - back, ...(days ? { days } : {}) }, "current");
      };
      transaction.oncomplete = () => { db.close(); resolve(true); };
      transaction.onabort = () => { db.close(); reject(new Error("nothing remembered to move back")); };
    };
  });
}

await dashboardWalk("dashboard remember walk", {}, async (browser, result) => {
  const context = await merchantContext(browser, gateway);
  const page = await context.newPage();
  // Its confirmations are accepted ("Forget this device"); the hesitant tab below declines its one.
  recordPage(page, result, { acceptConfirmations: true });
  const { waitForHeading, nav, shoot, axe } = pageChecks(page, result, screenshots, "remember-");
  const stored = () => page.evaluate(readEntry);
  const moveBack = (back, days) => page.evaluate(rewriteEntry, { back, days });
  // The messages the dashboard puts under the page's heading (not the forms' own, hidden, error summaries).
  const notices = async (target = page) => (await target.locator("main > .notice").allTextContents())
    .map((text) => text.replace(/\s+/g, " ").trim());
  const reload = async (title) => {
    await page.reload({ waitUntil: "load" });
    await waitForHeading(title);
  };
  /** Fills the sign-in form with "Remember on this device" ticked (and the period chosen, when given). */
  const signInRemembered = async (target, period) => {
    await target.getByLabel("API key").fill(apiKey);
    await target.getByLabel("Private key file").setInputFiles(keyFile);
    await target.getByLabel("Remember on this device").check();
    if (period) {
      await target.getByLabel("Remember for").selectOption(period);
    }
    await target.getByRole("button", { name: "Sign in" }).click();
  };

  // 1. The sign-in form: the period is offered once "Remember on this device" is ticked, 30 days unless chosen.
  await page.goto(`${gateway}/dashboard`, { waitUntil: "load" });
  await waitForHeading("Sign in");
  const base = (await page.locator('script[type="module"]').getAttribute("src")).replace(/\/app\.js$/, "");
  result.rules = await page.evaluate(async (assets) => {
    const sessions = await import(`${assets}/session.js`);
    const day = 24 * 60 * 60 * 1000;
    const now = Date.UTC(2026, 0, 31);
    return {
      choices: sessions.REMEMBER_DAYS ?? null,
      defaultDays: sessions.DEFAULT_REMEMBER_DAYS ?? null,
      maxDays: sessions.MAX_REMEMBER_DAYS ?? null,
      fromTrue: sessions.rememberDays?.(true) ?? null,
      fromSelect: sessions.rememberDays?.("7") ?? null,
      fromTooLong: sessions.rememberDays?.(365) ?? null,
      fromOdd: sessions.rememberDays?.(12) ?? null,
      untilDefault: sessions.rememberedUntil ? sessions.rememberedUntil({ savedAt: now }) - now : null,
      untilTampered: sessions.rememberedUntil ? sessions.rememberedUntil({ savedAt: now, days: 365 }) - now : null,
      untilWithoutTime: sessions.rememberedUntil?.({ days: 30 }) ?? null,
      expiredAt29Days: sessions.isExpired?.({ savedAt: now - 29 * day, days: 30 }, now) ?? null,
      expiredAt30Days: sessions.isExpired?.({ savedAt: now - 30 * day, days: 30 }, now) ?? null,
      expiredInTheFuture: sessions.isExpired?.({ savedAt: now + day, days: 30 }, now) ?? null,
      expiredWithoutTime: sessions.isExpired?.({ days: 30 }, now) ?? null,
    };
  }, base);
  result.periodControls = await page.locator("#remember-for").count();
  result.periodHiddenUnticked = await page.locator("#remember-for-row").isHidden();
  await page.getByLabel("Remember on this device").check();
  const period = page.getByLabel("Remember for");
  await period.waitFor({ state: "visible", timeout: 5000 });
  result.periodChoices = (await period.locator("option").allTextContents()).map((text) => text.trim());
  result.periodDefault = await period.inputValue();
  result.rememberControls = await page.getByLabel("Remember on this device").getAttribute("aria-controls");
  await axe("signin");
  await shoot("1-signin");
  await page.getByLabel("Remember on this device").uncheck();
  result.periodHiddenUntickedAgain = await page.locator("#remember-for-row").isHidden();

  // 2. Remembered (the default period): a reload keeps the session.
  await signInRemembered(page);
  await waitForHeading("Overview");
  result.stored = await stored();
  await reload("Overview");
  result.rememberedAfterReload = true;

  // 3. The Developers page says until when this device remembers the key and what forgetting does.
  await nav("Developers", "Developers");
  await page.locator("#device-status").waitFor();
  result.deviceRemembered = await page.locator("#device-status").getAttribute("data-remembered");
  result.deviceStatus = (await page.locator("#device-status").textContent()).replace(/\s+/g, " ").trim();
  result.forgetHint = (await page.locator("#forget-hint").textContent()).replace(/\s+/g, " ").trim();
  result.forgetDescribedBy = await page.getByRole("button", { name: "Forget this device" })
    .getAttribute("aria-describedby");
  await axe("developers");
  await shoot("2-developers");

  // 4. Remembered 29 days ago: still signed in. 31 days ago: erased at load, the sign-in page says why.
  await moveBack(29 * DAY);
  await reload("Developers");
  result.rememberedAfter29Days = true;
  await moveBack(2 * DAY);
  await reload("Sign in");
  result.expiredNotices = await notices();
  result.storedAfterExpiry = await stored();
  result.pathAfterExpiry = new URL(page.url()).pathname;
  result.navHiddenAfterExpiry = await page.locator("#nav").isHidden();
  await axe("expired");
  await shoot("3-expired");
  await reload("Sign in");
  result.noticesOnTheNextLoad = await notices();

  // 5. One day chosen: a day later it is gone too, and said so.
  await signInRemembered(page, "1");
  await waitForHeading("Overview");
  result.storedOneDay = await stored();
  await moveBack(DAY + 60 * 1000);
  await reload("Sign in");
  result.oneDayNotices = await notices();
  result.storedAfterOneDay = await stored();

  // 6. A stored period longer than the cap (365 days, as if the entry were tampered with): over after 90 days.
  await signInRemembered(page, "90");
  await waitForHeading("Overview");
  result.storedNinetyDays = await stored();
  await moveBack(91 * DAY, 365);
  await reload("Sign in");
  result.cappedNotices = await notices();
  result.storedAfterCap = await stored();

  // 7. A tab left open past the period: its next view signs it out (the page's clock moved on 31 days; a context of
  // its own, as the clock is the whole context's).
  const later = await merchantContext(browser, gateway);
  const open = await later.newPage();
  recordPage(open, result, { acceptConfirmations: false });
  const openChecks = pageChecks(open, result, screenshots, "remember-open-");
  await open.clock.install();
  await open.goto(`${gateway}/dashboard`, { waitUntil: "load" });
  await openChecks.waitForHeading("Sign in");
  await signInRemembered(open);
  await openChecks.waitForHeading("Overview");
  await open.clock.fastForward(31 * DAY);
  await openChecks.nav("Payment links", "Sign in");
  result.openTabNotices = await notices(open);
  result.storedAfterOpenTab = await open.evaluate(readEntry);
  await later.close();

  // 8. "Forget this device", declined in one tab: nothing changes there, the focus back on the button.
  await signInRemembered(page);
  await waitForHeading("Overview");
  const hesitant = await context.newPage();
  recordPage(hesitant, result, { acceptConfirmations: false });
  const hesitantChecks = pageChecks(hesitant, result, screenshots, "remember-hesitant-");
  await hesitant.goto(`${gateway}/dashboard/developers`, { waitUntil: "load" });
  await hesitantChecks.waitForHeading("Developers");
  await hesitant.getByRole("button", { name: "Forget this device" }).click();
  await hesitant.waitForFunction(() => document.activeElement?.id === "forget-device");
  result.declinedHeading = await hesitant.locator("main h1").textContent();
  result.declinedFocus = (await focusedElement(hesitant)).id;
  result.storedAfterDeclined = await stored();

  // 9. Confirmed, with the keyboard only: erased at once, signed out with a message, the focus on the sign-in
  // heading; the other tab is signed out too; a reload stays signed out.
  await nav("Developers", "Developers");
  // The dashboard moves the focus to the page's heading once every section has loaded: wait for that, or it may take
  // the focus off the button between focus() and the key press (CI saw the Enter land on the heading).
  await page.waitForFunction(() => document.activeElement === document.querySelector("main h1"));
  await page.getByRole("button", { name: "Forget this device" }).focus();
  await page.keyboard.press("Enter");
  await waitForHeading("Sign in");
  result.storedAfterForget = await stored();
  result.forgetNotices = await notices();
  result.focusAfterForget = await focusedElement(page);
  await hesitantChecks.waitForHeading("Sign in");
  result.otherTabNotices = await notices(hesitant);
  await axe("forgotten");
  await shoot("4-forgotten");
  await reload("Sign in");
  result.noticesAfterForgetReload = await notices();
  result.storedAfterForgetReload = await stored();
});
