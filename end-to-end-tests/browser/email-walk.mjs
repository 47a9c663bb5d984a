// Looks at e-mails as a customer's mail app shows them: each HTML part (a file written by the test) in Debian's
// Chromium at desktop and phone widths, with a screenshot of each, whether the phone view is wider than the phone,
// and axe-core's findings. Usage: node email-walk.mjs <screenshots dir> <name>=<html file>...
// Prints one JSON line in the shape the dashboard walks report (axe, overflows, consoleErrors, failedRequests).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { DESKTOP, PHONE } from "./dashboard-support.mjs";
import { launchChromium, recordErrors } from "./walk-support.mjs";

const [screenshots, ...parts] = process.argv.slice(2);
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const result = { axe: {}, overflows: {}, consoleErrors: [], failedRequests: [], external: {} };
const browser = await launchChromium();
try {
  for (const part of parts) {
    const [name, file] = part.split("=");
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    recordErrors(page, result.consoleErrors);
    // A mail app loads nothing an e-mail points at by itself; neither does this walk, and it counts what was asked.
    result.external[name] = 0;
    await page.route("**/*", (route) => {
      result.external[name] += 1;
      return route.abort();
    });
    await page.setContent(readFileSync(file, "utf8"), { waitUntil: "load" });
    await page.screenshot({ path: `${screenshots}/${name}-desktop.png`, fullPage: true });
    await page.setViewportSize(PHONE);
    await page.waitForTimeout(100);
    result.overflows[name] = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    await page.screenshot({ path: `${screenshots}/${name}-phone.png`, fullPage: true });
    await page.evaluate(axeSource);
    result.axe[name] = await page.evaluate(async () => {
      const run = await window.axe.run(document, { resultTypes: ["violations"] });
      return run.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")) }));
    });
    await context.close();
  }
  console.log(JSON.stringify(result));
} catch (error) {
  console.error(`email-walk failed: ${error.stack}`);
  console.error(JSON.stringify(result));
  process.exitCode = 1;
} finally {
  await browser.close();
}
