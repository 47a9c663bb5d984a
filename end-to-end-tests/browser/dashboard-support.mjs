// What the dashboard walks share (dashboard-walk.mjs, dashboard-subscriptions-walk.mjs, dashboard-money-walk.mjs): the
// run of a walk (Chromium, one JSON line on success, what was seen so far on failure), the merchant's browser context,
// what every walk records of a page (console errors, dialogs, refused requests), the sign-in with a key file, and the
// page's checks: the heading awaited, axe-core, screenshots at desktop and phone widths with the phone's overflow.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { launchChromium, recordErrors } from "./walk-support.mjs";

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * Runs steps(browser) in Debian's Chromium with result as what the walk saw (axe, failedRequests, dialogs,
 * consoleErrors and overflows to start with, then extra's members): prints result as one JSON line; on a failure
 * prints "<name> failed" with the error and reported(result) on stderr and exits 1. The browser is closed either way.
 */
export async function dashboardWalk(name, extra, steps, { reported = (seen) => seen } = {}) {
  const result = { axe: {}, failedRequests: [], dialogs: [], consoleErrors: [], overflows: {}, ...extra };
  const browser = await launchChromium();
  try {
    await steps(browser, result);
    console.log(JSON.stringify(result));
  } catch (error) {
    console.error(`${name} failed: ${error.stack}`);
    console.error(JSON.stringify(reported(result)));
    process.exitCode = 1;
  } finally {
    await browser.close();
  }
}

/**
 * The merchant's context: desktop-sized, the clipboard allowed at the gateway, and (with $DASHBOARD_SOURCES, when
 * working on the dashboard) its assets from that source folder instead of the running gateway's jar.
 */
export async function merchantContext(browser, gateway, options = {}) {
  const context = await browser.newContext({ viewport: DESKTOP, ...options });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: gateway });
  if (process.env.DASHBOARD_SOURCES) {
    await context.route("**/dashboard/assets/*/*", (route) => {
      const name = new URL(route.request().url()).pathname.split("/").pop();
      route.fulfill({ status: 200, contentType: name.endsWith(".css") ? "text/css" : "text/javascript",
        body: readFileSync(`${process.env.DASHBOARD_SOURCES}/${name}`) });
    });
  }
  return context;
}

const UNREAD = "(unread)";

/**
 * Records what happens in page into result: its console errors, every dialog (accepted if it is a confirmation and
 * acceptConfirmations, else dismissed) and every response of status 400 or more with the API's error code ("(unread)"
 * when the page had moved on before the body could be read).
 */
export function recordPage(page, result, { acceptConfirmations }) {
  recordErrors(page, result.consoleErrors);
  page.on("dialog", async (dialog) => {
    result.dialogs.push({ type: dialog.type(), message: dialog.message() });
    await (acceptConfirmations && dialog.type() === "confirm" ? dialog.accept() : dialog.dismiss());
  });
  page.on("response", async (response) => {
    if (response.status() >= 400) {
      // The page may move on before the body is read (the browser then drops it or gives it empty): said apart from
      // a body that is not the API's JSON error.
      const body = await response.text().catch(() => "");
      let code = UNREAD;
      if (body !== "") {
        try {
          code = JSON.parse(body).code ?? null;
        } catch {
          code = null;
        }
      }
      result.failedRequests.push({ method: response.request().method(), path: new URL(response.url()).pathname,
        status: response.status(), code });
    }
  });
}

/** Fills the sign-in form (API key, private key file, "remember on this device" if remember) and sends it. */
export async function signIn(page, apiKey, keyFile, { remember = false } = {}) {
  await page.getByLabel("API key").fill(apiKey);
  await page.getByLabel("Private key file").setInputFiles(keyFile);
  if (remember) {
    await page.getByLabel("Remember on this device").check();
  }
  await page.getByRole("button", { name: "Sign in" }).click();
}

/**
 * The checks of a dashboard page, reporting into result: heading() (the main h1's text), waitForHeading(text, timeout)
 * (saying what the page shows instead), nav(link, heading) through the dashboard's navigation, axe(name) (axe-core's
 * violations, into result.axe[name]) and shoot(name) (screenshots <screenshots>/<prefix><name>-desktop.png and
 * -phone.png, and in result.overflows[name] whether the page is wider than the phone).
 */
export function pageChecks(page, result, screenshots, prefix = "") {
  const heading = () => page.locator("main h1").first().textContent();
  const waitForHeading = async (text, timeout = 15000) => {
    await page.waitForFunction((wanted) => document.querySelector("main h1")?.textContent === wanted, text,
      { timeout }).catch(async (error) => {
      throw new Error(`waited for "${text}", page shows "${await heading()}" at ${page.url()}: ${error.message}`);
    });
  };
  const nav = async (text, title) => {
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: text }).click();
    await waitForHeading(title);
  };
  const shoot = async (name) => {
    await page.screenshot({ path: `${screenshots}/${prefix}${name}-desktop.png`, fullPage: true });
    await page.setViewportSize(PHONE);
    await page.waitForTimeout(200);
    result.overflows[name] = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    await page.screenshot({ path: `${screenshots}/${prefix}${name}-phone.png`, fullPage: true });
    await page.setViewportSize(DESKTOP);
  };
  const axe = async (name) => {
    // Evaluated through the DevTools protocol, so the page's Content-Security-Policy stays as strict as in production.
    await page.evaluate(axeSource);
    result.axe[name] = await page.evaluate(async () => {
      const run = await window.axe.run(document, { resultTypes: ["violations"] });
      return run.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")) }));
    });
  };
  return { heading, waitForHeading, nav, shoot, axe };
}
