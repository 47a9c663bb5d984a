// One payment link (GET /payment_links/{id}): its facts, the checkout address to copy and as a QR code (an image
// payment-links-service draws, GET /checkout/payment_link/qr.svg), what was paid (summary and transactions, followed
// every 5 s while the link can still be paid), where its webhook events go, and cancelling it (DELETE).
import { queryString } from "./api.js";
import { copy, fill, h, notice, table } from "./dom.js";
import { label, money, shortHex, when } from "./format.js";
import { LINK_EVENTS } from "./webhooks.js";

export const title = "Payment link";

const OPEN = new Set(["pending", "processing"]);
const FOLLOW_EVERY_MS = 5000;

export async function render(ctx) {
  const path = `/payment_links/${ctx.params.id}`;
  let link;
  try {
    link = (await ctx.api.get(path)).data;
  } catch (error) {
    if (error.status === 404) {
      fill(ctx.main, h("h1", { tabindex: "-1" }, "Payment link not found"),
        h("p", {}, "No payment link of this mode has this id."),
        h("p", {}, h("a", { href: "/dashboard/links", "data-nav": true }, "All payment links")));
      return;
    }
    throw error;
  }
  if (!ctx.alive()) {
    return;
  }
  const state = h("section", { id: "link-state", "aria-labelledby": "state-heading" });
  const paid = h("section", { id: "link-payments", "aria-labelledby": "payments-heading" });
  const message = h("div", { id: "link-message" });
  const copied = h("span", { class: "hint", role: "status" });
  const url = h("input", { id: "payment-url", type: "text", readonly: true, value: link.payment_url,
    "aria-label": "Checkout address (payment_url)" });
  const cancel = h("button", { type: "button", class: "danger", id: "cancel-link" }, "Cancel payment link");

  const update = (current) => {
    link = current;
    fill(state,
      h("h2", { id: "state-heading" }, "Status"),
      h("p", {}, h("span", { id: "link-status", class: `status status-${current.payment_status}`,
        dataset: { status: current.payment_status } }, label(current.payment_status)),
      current.is_active ? "" : " · inactive"),
      h("dl", { class: "facts" },
        h("dt", {}, "Uses"), h("dd", {}, `${current.current_uses} of ${current.max_uses}`),
        h("dt", {}, "Expires"), h("dd", {}, when(current.expires_at))));
    const summary = current.summary ?? {};
    const transactions = current.transactions ?? [];
    fill(paid,
      h("h2", { id: "payments-heading" }, "Payments"),
      h("dl", { class: "facts" },
        h("dt", {}, "Received"), h("dd", { id: "received" },
          money(summary.total_amount_received_crypto ?? "0", current.currency)),
        h("dt", {}, "Transfers"), h("dd", {}, `${summary.total_transactions ?? 0} (${summary.completed_transactions ?? 0} `
          + `confirmed, ${summary.pending_transactions ?? 0} pending)`),
        h("dt", {}, "Payers"), h("dd", {}, String(summary.total_payers ?? 0))),
      transactions.length === 0
        ? h("p", {}, "No transfer to this link has been seen yet.")
        : table("Transfers to this link, newest first", ["Transaction", "Amount", "Status", "Confirmations",
          "Payer", "Seen"], transactions.map((tx) => [
          h("code", { title: tx.tx_hash }, shortHex(tx.tx_hash)),
          money(tx.crypto_amount, tx.asset),
          [label(tx.status), tx.late ? " (late)" : "", tx.unexpected_asset ? " (other asset)" : ""].join(""),
          tx.required_confirmations ? `${tx.confirmations} of ${tx.required_confirmations}` : String(tx.confirmations),
          h("code", { title: tx.payer_address }, shortHex(tx.payer_address)),
          when(tx.created_at),
        ])));
    cancel.hidden = !(current.is_active && OPEN.has(current.payment_status));
  };

  cancel.addEventListener("click", async () => {
    if (!window.confirm(`Cancel "${link.payment_name}"? Customers can no longer pay it.`)) {
      return;
    }
    cancel.disabled = true;
    try {
      update((await ctx.api.del(path)).data);
      fill(message, notice("success", "The payment link is cancelled."));
      ctx.announce("Payment link cancelled");
    } catch (error) {
      fill(message, notice("error", error.message));
    } finally {
      cancel.disabled = false;
    }
  });

  fill(ctx.main,
    h("p", { class: "breadcrumb" }, h("a", { href: "/dashboard/links", "data-nav": true }, "Payment links")),
    h("h1", { tabindex: "-1" }, link.payment_name),
    h("p", { class: "lead" }, money(link.amount, link.currency),
      link.description ? h("span", { class: "hint" }, ` · ${link.description}`) : null),
    message,
    h("section", { "aria-labelledby": "checkout-heading" },
      h("h2", { id: "checkout-heading" }, "Checkout"),
      h("div", { class: "copy-row" }, url,
        h("button", { type: "button", id: "copy-payment-url", class: "secondary", on: { click: async () => {
          const done = await copy(link.payment_url);
          if (!done) {
            url.select();
          }
          copied.textContent = done ? "Copied." : "Selected: press Ctrl+C (⌘C) to copy.";
        } } }, "Copy"),
        h("a", { href: link.payment_url, target: "_blank", rel: "noopener noreferrer", class: "button secondary" },
          "Open checkout")),
      copied,
      h("div", { class: "checkout-grid" },
        h("dl", { class: "facts" },
          h("dt", {}, "Deposit address"), h("dd", {}, link.deposit_address
            ? h("code", { id: "deposit-address" }, link.deposit_address)
            : "None: no receiving key was registered for this mode when the link was made (Developers)."),
          link.payment_uri ? [h("dt", {}, "Payment request (EIP-681)"),
            h("dd", {}, h("code", { id: "payment-uri" }, link.payment_uri))] : null,
          h("dt", {}, "Network"), h("dd", {}, link.network ? `${link.network} (chain ${link.chain_id})` : "—"),
          h("dt", {}, "Order"), h("dd", {}, link.order_id),
          h("dt", {}, "Customer"), h("dd", {}, [link.customer_name, link.customer_email, link.customer_id]
            .filter(Boolean).join(" · ")),
          h("dt", {}, "Created"), h("dd", {}, when(link.created_at))),
        h("figure", { class: "qr" },
          h("img", { id: "payment-url-qr", alt: "QR code of the checkout address", width: "192", height: "192",
            src: `/checkout/payment_link/qr.svg${queryString({ payment_id: link.id })}` }),
          h("figcaption", {}, "Scan to open the checkout on a phone.")))),
    state,
    paid,
    h("section", { id: "link-webhooks", "aria-labelledby": "link-webhooks-heading" },
      h("h2", { id: "link-webhooks-heading" }, "Webhook events"),
      h("p", {}, "What happens to this link is sent to each of your webhook endpoints subscribed to its event types: ",
        LINK_EVENTS.flatMap((type, i) => [i ? ", " : "", h("code", {}, type)]), "."),
      h("p", { class: "hint" }, "The webhook API lists deliveries per endpoint (by status and event type) and cannot "
        + "select those of one payment link, so they are not listed here: see each endpoint's deliveries in ",
      h("a", { href: "/dashboard/webhooks", "data-nav": true }, "Webhooks"), ".")),
    h("p", {}, cancel));
  update(link);

  // Follow the link while it can still be paid and the tab is visible.
  const timer = setInterval(async () => {
    if (document.hidden || !OPEN.has(link.payment_status) || !ctx.alive()) {
      return;
    }
    try {
      const current = (await ctx.api.get(path)).data;
      if (ctx.alive() && current.payment_status !== link.payment_status) {
        ctx.announce(`Payment link ${label(current.payment_status).toLowerCase()}`);
      }
      if (ctx.alive()) {
        update(current);
      }
    } catch {
      // a missed refresh; the next one retries
    }
  }, FOLLOW_EVERY_MS);
  ctx.onLeave(() => clearInterval(timer));
}
