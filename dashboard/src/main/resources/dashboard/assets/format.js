// Showing values: times in the merchant's locale, amounts exactly as the API wrote them, sums of amounts in exact
// decimal arithmetic (never floating point).

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** A time the API gave (ISO 8601), in the browser's locale; "—" for none. */
export function when(iso) {
  if (!iso) {
    return "—";
  }
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : dateTime.format(date);
}

/** "10.5 USDC". */
export function money(amount, currency) {
  return `${amount} ${currency ?? ""}`.trim();
}

const SCALE = 18;

/** A decimal string as a BigInt of 10^-18 units; null when it is not a plain decimal. */
function units(text) {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(String(text));
  if (!match || (match[3] ?? "").length > SCALE) {
    return null;
  }
  const value = BigInt(match[2] + (match[3] ?? "").padEnd(SCALE, "0"));
  return match[1] ? -value : value;
}

function decimal(value) {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(SCALE + 1, "0");
  const whole = digits.slice(0, -SCALE);
  const fraction = digits.slice(-SCALE).replace(/0+$/, "");
  return (negative ? "-" : "") + whole + (fraction ? `.${fraction}` : "");
}

/** The exact sum of decimal strings, each times its count: [[amount, count], …]. */
export function sum(terms) {
  let total = 0n;
  for (const [amount, count] of terms) {
    const value = units(amount);
    if (value === null) {
      continue;
    }
    total += value * BigInt(count);
  }
  return decimal(total);
}

/** A long hex string (a transaction hash, an address) shortened in the middle, for tables. */
export function shortHex(text) {
  return text && text.length > 14 ? `${text.slice(0, 8)}…${text.slice(-6)}` : text ?? "—";
}

/** "pending" → "Pending", "one_time" → "One time". */
export function label(text) {
  if (!text) {
    return "—";
  }
  const spaced = String(text).replace(/_/g, " ");
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** -1, 0 or 1 as decimal string a is below, equal to or above b; null when either is not a plain decimal. */
export function compareDecimals(a, b) {
  const left = units(a);
  const right = units(b);
  if (left === null || right === null) {
    return null;
  }
  return left < right ? -1 : left > right ? 1 : 0;
}

/** A JSON number with exactly the digits typed (JSON.rawJSON), or the text itself for the API to refuse. */
export function jsonDecimal(text) {
  if (!/^\d+(\.\d+)?$/.test(text)) {
    return text;
  }
  return typeof JSON.rawJSON === "function" ? JSON.rawJSON(text) : Number(text);
}
