// A payment link's money actions, shown on its view (view-link.js calls showLinkMoney on every read of the link):
// the Received figure in USD beside the crypto amount; its transfers with what counts (late, another asset, not
// counted, the USD value) and "Accept as payment" for a late payment that covers the link (POST …/resolve); its
// refunds (the link's `refunds`) and asking for one (POST …/refunds): the merchant's wallet pays its payment_uri from
// the deposit address, so the page says so and follows the refund until the chain confirms it.
import { ApiError } from "./api.js";
import { clearErrors, copy, field, fill, h, notice, showErrors, table } from "./dom.js";
import { compareDecimals, jsonDecimal, label, money, shortHex, when } from "./format.js";

/** The link's own 5-s poll (view-link.js) follows it while it can be paid; refunds are followed here otherwise. */
const LINK_OPEN = new Set(["pending", "processing"]);
const REFUND_OPEN = new Set(["initiated", "pending"]);
/** 12 reads a minute: within the gateway's payment-links read limit (30 a minute per API key) with the others. */
const FOLLOW_EVERY_MS = 5000;

const REFUND_STATES = {
  initiated: "Waiting for your wallet",
  pending: "Pending: on chain, not yet confirmed",
  completed: "Completed",
  failed: "Failed",
};
const FAILURES = {
  abandoned: "nothing paid it before it expired",
  reorganised: "its transfer was reorganised away",
};
/** Refusals the API answers without naming a field, shown at the field they are about. */
const FIELD_OF_CODE = { exceeds_refundable: "amount", nothing_to_refund: "amount", not_confirmed: "transaction_id" };

/** What the section keeps between reads of the link, per view (its payments section). */
const states = new WeakMap();

/**
 * Adds the money to the link's payments section (`paid`, just filled with its heading and facts, `#received` among
 * them) and keeps the refunds section after it. update(link) is the view's: it shows a link read again.
 */
export function showLinkMoney(ctx, paid, link, update) {
  let state = states.get(paid);
  if (!state) {
    state = refundsSection(ctx, update);
    states.set(paid, state);
  }
  state.link = link;
  if (!state.section.isConnected) {
    paid.after(state.section);
  }
  receivedInUsd(paid, link.summary ?? {});
  paid.append(transfers(ctx, state, link, update), state.transferMessage);
  state.show(link);
}

function receivedInUsd(paid, summary) {
  const received = paid.querySelector("#received");
  if (!received || summary.total_amount_received === undefined || summary.total_amount_received === null) {
    return;
  }
  const unpriced = summary.unpriced_transactions ?? 0;
  received.append(
    h("span", { id: "received-fiat" }, ` · ${money(summary.total_amount_received, summary.fiat_currency ?? "USD")}`));
  if (unpriced > 0) {
    received.append(h("span", { id: "received-unpriced", class: "hint block" },
      `${unpriced} ${unpriced === 1 ? "transfer" : "transfers"} without a USD price (not in the USD figure)`));
  }
}

// ---- transfers ----

function transfers(ctx, state, link, update) {
  const list = link.transactions ?? [];
  if (list.length === 0) {
    return h("p", {}, "No transfer to this link has been seen yet.");
  }
  return table("Transfers to this link, newest first", ["Transaction", "Amount", "Status", "Confirmations", "Payer",
    "Seen", ""], list.map((tx) => [
    h("code", { title: tx.tx_hash, dataset: { txHash: tx.tx_hash } }, shortHex(tx.tx_hash)),
    amountOf(tx),
    statusOf(tx),
    tx.required_confirmations ? `${tx.confirmations} of ${tx.required_confirmations}` : String(tx.confirmations),
    h("code", { title: tx.payer_address }, shortHex(tx.payer_address)),
    when(tx.created_at),
    acceptable(tx, link) ? acceptButton(ctx, state, link, tx, update) : null,
  ]));
}

function amountOf(tx) {
  const refunded = compareDecimals(tx.refunded_amount ?? "0", "0") === 1;
  return h("span", {},
    tx.unexpected_asset
      ? h("span", { class: "other-asset" }, `Other asset: ${money(tx.crypto_amount, tx.asset)} — not counted`)
      : money(tx.crypto_amount, tx.asset),
    tx.fiat_amount !== null && tx.fiat_amount !== undefined
      ? h("span", { class: "hint block" }, `≈ ${money(tx.fiat_amount, "USD")}`) : null,
    refunded ? h("span", { class: "hint block" }, `${money(tx.refunded_amount, tx.asset)} refunded`) : null);
}

function statusOf(tx) {
  return h("span", { class: "badges", dataset: { transfer: tx.id } },
    h("span", { class: `status status-${tx.status}` }, label(tx.status)),
    tx.late ? h("span", { class: "status status-late", dataset: { late: "true" } }, "Late") : null,
    tx.status === "confirmed" && !tx.counted_as_use && !tx.unexpected_asset && tx.late
      ? h("span", { class: "status status-not-counted" }, "Not counted") : null,
    tx.late && tx.counted_as_use ? h("span", { class: "status status-accepted" }, "Accepted") : null);
}

/** Late, confirmed, of the link's asset, not yet a use and covering the amount on its own: what resolve accepts. */
function acceptable(tx, link) {
  return tx.late && !tx.unexpected_asset && !tx.counted_as_use && tx.status === "confirmed"
    && [0, 1].includes(compareDecimals(tx.crypto_amount, link.amount));
}

function acceptButton(ctx, state, link, tx, update) {
  const refusal = state.refusals.get(tx.id);
  const refusalId = `accept-refusal-${tx.id}`;
  const button = h("button", { type: "button", class: "secondary accept-late", "aria-describedby": refusalId,
    dataset: { txHash: tx.tx_hash } }, "Accept as payment");
  button.addEventListener("click", async () => {
    button.disabled = true;
    const body = { tx_hash: tx.tx_hash, log_index: tx.log_index };
    // The same transfer accepted again (after a lost answer) keeps its key: one use, one event.
    const key = state.resolveKeys.get(tx.id) ?? crypto.randomUUID();
    state.resolveKeys.set(tx.id, key);
    try {
      const resolved = (await ctx.api.post(`/payment_links/${link.id}/resolve`, body, { "Idempotency-Key": key })).data;
      state.refusals.delete(tx.id);
      if (!ctx.alive()) {
        return;
      }
      fill(state.transferMessage, notice("success", `The late payment ${shortHex(tx.tx_hash)} is accepted as a use `
        + `of the link: ${label(resolved.payment_status).toLowerCase()}, ${resolved.current_uses} of `
        + `${resolved.max_uses} uses.`));
      ctx.announce("Late payment accepted");
      update(resolved);
    } catch (error) {
      if (!ctx.alive()) {
        return;
      }
      if (error.status === 401 || error.status === 403) {
        ctx.failed(error);
        return;
      }
      state.refusals.set(tx.id, error.message);
      fill(state.transferMessage, notice("error", `${shortHex(tx.tx_hash)} was not accepted: ${error.message}`));
      update(state.link);
    }
  });
  return h("span", { class: "accept" }, button,
    h("span", { id: refusalId, class: "field-error", role: refusal ? "alert" : null }, refusal ?? ""));
}

// ---- refunds ----

function refundsSection(ctx, update) {
  const state = {
    link: null,
    refusals: new Map(),
    resolveKeys: new Map(),
    transferMessage: h("div", { id: "transfer-message" }),
    created: h("div", { id: "refund-created", tabindex: "-1" }),
  };
  const list = h("div", { id: "refund-list" });
  const what = field("transaction_id", "What to refund", { choices: [["", "The link's money"]],
    hint: "The link's money: its confirmed transfers in its own token, less what refunds already claim. "
      + "A transfer: returned in its own token (another asset too)." });
  const amount = field("amount", "Amount (optional)", { inputmode: "decimal", autocomplete: "off",
    hint: "Empty: everything that can be refunded." });
  const address = field("address", "To address (optional)", { autocomplete: "off", spellcheck: "false",
    hint: "Empty: back to the payer. 0x and 40 hexadecimal digits; an address that never paid this link is checked "
      + "with you first." });
  const summary = h("div", { class: "notice error", role: "alert", hidden: true, tabindex: "-1" });
  const submit = h("button", { type: "submit" }, "Refund");
  const form = h("form", { id: "refund-form", class: "stack", novalidate: true, "aria-labelledby": "refund-form-heading" },
    h("h3", { id: "refund-form-heading" }, "Ask for a refund"),
    summary, what.row, amount.row, address.row, h("p", {}, submit));
  const noDeposit = h("p", { class: "hint" }, "This link has no deposit address (no receiving key when it was made): "
    + "return the money from the wallet that received it.");
  state.section = h("section", { id: "link-refunds", "aria-labelledby": "refunds-heading" },
    h("h2", { id: "refunds-heading" }, "Refunds"),
    h("p", { class: "hint" }, "The deposit address is your wallet's: the platform never sends money. A refund says "
      + "what your wallet must send from it, and completes when the chain confirms that transfer."),
    state.created, list, form, noDeposit);

  let lastBody = null;
  let idempotencyKey = null;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form, summary);
    const body = {};
    if (what.input.value) {
      body.transaction_id = what.input.value;
    }
    if (amount.input.value.trim()) {
      body.amount = jsonDecimal(amount.input.value.trim());
    }
    if (address.input.value.trim()) {
      body.address = address.input.value.trim();
      // Address poisoning: a look-alike address a scammer made the payer's history show. Money sent there is gone.
      if (!payers(state.link).has(body.address.toLowerCase())
        && !window.confirm(`${body.address} has never paid this link. Check every character against the customer's `
          + "own word: look-alike addresses are a common way to steal refunds. Refund to it anyway?")) {
        address.input.focus();
        return;
      }
    }
    // The same body sent again (after a lost answer) keeps its Idempotency-Key, so it never asks twice.
    const text = JSON.stringify(body);
    if (text !== lastBody) {
      lastBody = text;
      idempotencyKey = crypto.randomUUID();
    }
    const path = `/payment_links/${state.link.id}`;
    submit.disabled = true;
    try {
      const refund = (await ctx.api.post(`${path}/refunds`, body, { "Idempotency-Key": idempotencyKey })).data;
      lastBody = null;
      if (!ctx.alive()) {
        return;
      }
      form.reset();
      state.createdId = refund.id;
      showCreated(state.created, refund);
      state.created.focus();
      ctx.announce("Refund asked: pay it from the deposit address with your wallet");
      update((await ctx.api.get(path)).data);
    } catch (error) {
      if (!ctx.alive()) {
        return;
      }
      if (error.status === 400 || error.status === 404 || error.status === 409) {
        (showErrors(form, summary, atItsField(error)) ?? summary).focus();
      } else {
        ctx.failed(error);
      }
    } finally {
      submit.disabled = false;
    }
  });

  state.show = (link) => {
    const refunds = link.refunds ?? [];
    // What to pay goes once the refund no longer waits for it (the table says how it ended).
    if (state.createdId && refunds.some((refund) => refund.id === state.createdId && !REFUND_OPEN.has(refund.status))) {
      state.createdId = null;
      state.created.replaceChildren();
    }
    const paid = payers(link);
    fill(list, refunds.length === 0
      ? h("p", {}, "No refund has been asked for this link.")
      : [table(refunds.length >= 100 ? "The 100 most recent refunds" : "Refunds of this link, newest first",
        ["Asked", "Amount", "To", "Status", "Paid by", "Pay before", ""], refunds.map((refund) => refundRow(paid, refund))),
      ]);
    offerTransfers(what.input, link);
    form.hidden = !link.deposit_address;
    noDeposit.hidden = Boolean(link.deposit_address);
  };

  // While a refund waits for the chain and the link's own poll has stopped, read the link every 5 s.
  const timer = setInterval(async () => {
    const link = state.link;
    if (!link || document.hidden || !ctx.alive() || LINK_OPEN.has(link.payment_status)
      || !(link.refunds ?? []).some((refund) => REFUND_OPEN.has(refund.status))) {
      return;
    }
    try {
      const current = (await ctx.api.get(`/payment_links/${link.id}`)).data;
      if (!ctx.alive()) {
        return;
      }
      const done = (current.refunds ?? []).filter((refund) => !REFUND_OPEN.has(refund.status)
        && (link.refunds ?? []).some((before) => before.id === refund.id && REFUND_OPEN.has(before.status)));
      update(current);
      for (const refund of done) {
        ctx.announce(`Refund of ${money(refund.amount, refund.asset)} ${refund.status}`);
      }
    } catch {
      // a missed refresh; the next one retries
    }
  }, FOLLOW_EVERY_MS);
  ctx.onLeave(() => clearInterval(timer));
  return state;
}

/** The addresses (lower case) that paid the link: where a refund is expected to go. */
function payers(link) {
  return new Set((link?.transactions ?? []).map((tx) => (tx.payer_address ?? "").toLowerCase()).filter(Boolean));
}

/** A refund's row; paid: the addresses that paid the link (payers). */
function refundRow(paid, refund) {
  const failure = refund.status === "failed" && refund.failure_reason
    ? `: ${FAILURES[refund.failure_reason] ?? label(refund.failure_reason)}` : "";
  return [
    when(refund.created_at),
    money(refund.amount, refund.asset),
    [h("code", { class: "address" }, refund.to_address),
      paid.has((refund.to_address ?? "").toLowerCase()) ? null
        : h("span", { class: "hint block warning" }, "Not an address that paid this link")],
    h("span", { class: `status status-refund-${refund.status}`, dataset: { refund: refund.id, status: refund.status } },
      `${REFUND_STATES[refund.status] ?? label(refund.status)}${failure}`),
    refund.tx_hash ? h("code", { title: refund.tx_hash }, shortHex(refund.tx_hash)) : "—",
    REFUND_OPEN.has(refund.status) || refund.status === "failed" ? when(refund.expires_at) : "—",
    refund.status === "initiated" ? copyButton(refund.payment_uri, "Copy payment request") : null,
  ];
}

/** The select's transfers: the confirmed ones (another asset too), keeping the merchant's choice. */
function offerTransfers(select, link) {
  const chosen = select.value;
  const options = [["", `The link's money (${link.currency})`]].concat((link.transactions ?? [])
    .filter((tx) => tx.status === "confirmed")
    .map((tx) => [tx.id, `${money(tx.crypto_amount, tx.asset)} from ${tx.payer_address} `
      + `(${shortHex(tx.tx_hash)}${tx.late ? ", late" : ""})`]));
  fill(select, options.map(([value, text]) => h("option", { value }, text)));
  select.value = options.some(([value]) => value === chosen) ? chosen : "";
}

function showCreated(slot, refund) {
  const uri = h("input", { id: "refund-payment-uri", type: "text", readonly: true, value: refund.payment_uri,
    "aria-label": "Refund payment request (EIP-681)" });
  fill(slot, notice("success",
    h("p", {}, `Refund of ${money(refund.amount, refund.asset)} to `, h("code", {}, refund.to_address), " asked."),
    h("p", { id: "refund-instructions" }, "Pay this from the deposit address ",
      h("code", {}, refund.from_address), ` with your wallet before ${when(refund.expires_at)}; the refund completes `
        + "when the chain confirms it."),
    h("div", { class: "copy-row" }, uri, copyButton(refund.payment_uri, "Copy", uri))));
}

/** A copy button with its own result, read out when it changes. */
function copyButton(text, caption, input = null) {
  const result = h("span", { class: "hint", role: "status" });
  const button = h("button", { type: "button", class: "secondary copy-refund-uri" }, caption);
  button.addEventListener("click", async () => {
    const done = await copy(text);
    if (!done && input) {
      input.select();
    }
    result.textContent = done ? "Copied." : "Could not copy: select it and press Ctrl+C (⌘C).";
  });
  return h("span", { class: "copy-action" }, button, " ", result);
}

/** A refusal the API gave without a field, placed at the field it is about. */
function atItsField(error) {
  const fieldName = FIELD_OF_CODE[error.code];
  if (!fieldName || error.errors.length) {
    return error;
  }
  return new ApiError(error.status, error.code, error.message, [{ field: fieldName, message: error.message }],
    error.requestId);
}
