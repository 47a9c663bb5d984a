// One payment link (GET /payment_links/{id}): its facts, the checkout address to copy and as a QR code (an image
// payment-links-service draws, GET /checkout/payment_link/qr.svg), what was paid (summary and transactions, followed
// every 5 s while the link can still be paid), its events and their webhook deliveries (GET /events?object_id=, read
// once and on "Refresh": the webhook routes allow 30 calls a minute per key), and cancelling it (DELETE).
import { queryString } from "./api.js";
import { copy, fill, h, notice, table } from "./dom.js";
import { label, money, when } from "./format.js";
import { LINK_EVENTS, deliveryState } from "./webhooks.js";
import { showLinkMoney } from "./link-money.js";

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
  const events = h("section", { id: "link-webhooks", "aria-labelledby": "link-webhooks-heading" });

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
    fill(paid,
      h("h2", { id: "payments-heading" }, "Payments"),
      h("dl", { class: "facts" },
        h("dt", {}, "Received"), h("dd", { id: "received" },
          money(summary.total_amount_received_crypto ?? "0", current.currency)),
        h("dt", {}, "Transfers"), h("dd", {}, `${summary.total_transactions ?? 0} (${summary.completed_transactions ?? 0} `
          + `confirmed, ${summary.pending_transactions ?? 0} pending)`),
        h("dt", {}, "Payers"), h("dd", {}, String(summary.total_payers ?? 0))));
    showLinkMoney(ctx, paid, current, update);
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
    events,
    h("p", {}, cancel));
  update(link);
  await showLinkEvents(ctx, events, link.id);

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

/** The most events the page shows: the newest ones; the count says when there are more. */
const EVENTS_SHOWN = 50;

/**
 * Fills section with the link's events, newest first, each with its deliveries to your endpoints (each leading to
 * its attempts). Read when the page opens and on "Refresh", never polled.
 */
async function showLinkEvents(ctx, section, linkId) {
  const results = h("div", { id: "link-events", "aria-live": "polite" });
  fill(section,
    h("h2", { id: "link-webhooks-heading" }, "Events"),
    h("p", {}, "What happens to this link is sent to each of your webhook endpoints subscribed to its event types: ",
      LINK_EVENTS.flatMap((type, i) => [i ? ", " : "", h("code", {}, type)]), "."),
    h("p", { class: "actions" }, h("button", { type: "button", class: "secondary", id: "refresh-link-events",
      on: { click: () => load(true) } }, "Refresh")),
    results);

  async function load(announce) {
    let answer;
    try {
      answer = (await ctx.api.get("/events", { object_id: linkId, limit: EVENTS_SHOWN })).data;
    } catch (error) {
      if (!ctx.alive()) {
        return;
      }
      if (error.status === 401) {
        throw error;
      }
      fill(results, notice("error", `The events could not be read: ${error.message}`));
      return;
    }
    if (!ctx.alive()) {
      return;
    }
    const total = answer.pagination.total_records;
    fill(results,
      h("p", { id: "link-events-count" }, total === 1 ? "1 event" : `${total} events`,
        total > answer.data.length ? ` (the newest ${answer.data.length} shown)` : ""),
      answer.data.length === 0
        ? h("p", {}, "No event yet: they appear here as the link is paid, refunded or changes state.")
        : h("ol", { class: "event-history" }, answer.data.map((event) => eventItem(event))));
    if (announce) {
      ctx.announce(total === 1 ? "1 event" : `${total} events`);
    }
  }
  await load(false);
}

function eventItem(event) {
  const headingId = `event-${event.id}`;
  return h("li", { dataset: { event: event.id, eventType: event.type } },
    h("h3", { id: headingId }, h("code", { class: "event-type" }, event.type), " · ", when(event.created_at)),
    event.deliveries.length === 0
      ? h("p", { class: "hint" }, "Not sent: no endpoint was subscribed to this event type when it happened.")
      : table(`Deliveries of ${event.type}`, ["Endpoint", "Status", "Attempts", "Last attempt", ""],
        event.deliveries.map((delivery) => [
          h("code", { class: "endpoint-url" }, delivery.endpoint_url),
          deliveryState(delivery),
          String(delivery.attempts),
          delivery.last_attempt_at
            ? [when(delivery.last_attempt_at), delivery.last_status_code ? ` · HTTP ${delivery.last_status_code}` : ""]
            : "—",
          h("a", { href: `/dashboard/webhooks/${delivery.endpoint_id}/deliveries/${delivery.id}`, "data-nav": true,
            dataset: { delivery: delivery.id },
            "aria-label": `Attempts of the ${event.type} delivery to ${delivery.endpoint_url}` }, "Attempts"),
        ]), { captionHidden: true }));
}
