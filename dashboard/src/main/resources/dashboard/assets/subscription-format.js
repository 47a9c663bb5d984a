// What the subscriptions views share: durations in words, token amounts from base units, the statuses' words and the
// tabs between plans and subscription links.
import { h } from "./dom.js";

const UNITS = [["week", 604800], ["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];

/** Seconds in the largest whole unit: 2592000 → "30 days", 3600 → "1 hour"; 0 → none. */
export function duration(seconds, none = "None") {
  const value = Number(seconds);
  if (!Number.isFinite(value) || value <= 0) {
    return none;
  }
  const [unit, size] = UNITS.find(([, one]) => value % one === 0);
  const count = value / size;
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}

/** "every 30 days", "every hour". */
export function every(seconds) {
  const words = duration(seconds, "");
  return words.startsWith("1 ") ? `every ${words.slice(2)}` : `every ${words}`;
}

/** What one period of a plan (or a plan summary) bills: "9.99 USDC every 30 days". */
export function price(plan) {
  return `${plan.formatted_amount} ${plan.currency_symbol} ${every(plan.interval)}`;
}

/** Base units as a decimal in token units (decimals known), else the digits with "base units". */
export function tokenAmount(baseUnits, decimals, symbol) {
  if (!/^\d+$/.test(String(baseUnits ?? ""))) {
    return "—";
  }
  if (!Number.isInteger(decimals) || decimals < 0) {
    return `${baseUnits} base units of ${symbol}`;
  }
  const digits = String(baseUnits).padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals).replace(/^0+(?=\d)/, "");
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${whole}${fraction ? `.${fraction}` : ""} ${symbol}`;
}

/** The token's decimals from a plan summary: amount (base units) against formatted_amount (token units). */
export function decimalsOf(plan) {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(plan?.formatted_amount ?? "");
  if (!match || !/^\d+$/.test(plan.amount ?? "")) {
    return null;
  }
  const shown = BigInt(match[1] + (match[2] ?? ""));
  const places = (match[2] ?? "").length;
  if (shown === 0n) {
    return null;
  }
  for (let decimals = places; decimals <= 36; decimals++) {
    if (shown * 10n ** BigInt(decimals - places) === BigInt(plan.amount)) {
      return decimals;
    }
  }
  return null;
}

/** The words of a subscriber's status. */
export const SUBSCRIBER_STATUS = {
  invitation_sent: "Invitation sent",
  active: "Active",
  inactive: "Inactive",
  suspended: "Suspended",
  cancelled: "Cancelled",
};

/** A link's state in one word: what the chain says, then whether it is billed. */
export function linkState(link) {
  if (link.chain_status === "pending") {
    return ["pending", "Waiting for the chain"];
  }
  if (link.chain_status === "failed") {
    return ["failed", "Not confirmed on chain"];
  }
  if (link.chain_status === "ended") {
    return ["ended", "Ended on chain"];
  }
  return link.is_active ? ["active", "Active"] : ["stopped", "Stopped"];
}

/** The tabs of the subscriptions section; current: "plans" or "links". */
export function tabs(current) {
  const tab = (name, href, text) => h("li", {}, h("a", { href, "data-nav": true,
    "aria-current": name === current ? "page" : null }, text));
  return h("nav", { class: "tabs", "aria-label": "Subscriptions" }, h("ul", {},
    tab("plans", "/dashboard/subscriptions", "Plans"),
    tab("links", "/dashboard/subscriptions/links", "Subscription links")));
}
