// Overview: the account, what the payment links received (per currency and in USD, as the links' summaries count
// it: GET /payment_links/totals), the most recent payments to links (GET /payment_links/transactions), the most recent
// subscription payments, the most recent payment links, and the webhook endpoints that need attention (disabled, or
// failing: their latest attempts failed).
import { fill, h, table } from "./dom.js";
import { label, money, when } from "./format.js";
import { decimalsOf, tokenAmount } from "./subscription-format.js";
import { endpointState, failing, stateDetail } from "./webhooks.js";

export const title = "Overview";

/** How many payments each "Recent" table shows. */
const RECENT = 10;
/** Subscription links read for their payments: the newest ones (the API lists links newest first, in one call). */
const SUBSCRIPTION_LINKS_READ = 50;

/** A section's answer, or the error when it cannot be read (a limit reached, a service away); 401 still signs out. */
function orError(promise) {
  return promise.then((answer) => answer, (error) => {
    if (error.status === 401) {
      throw error;
    }
    return error;
  });
}

export async function render(ctx) {
  const [recent, totals, payments, subscriptionLinks, endpoints] = await Promise.all([
    ctx.api.get("/payment_links", { limit: 10, sort_by: "created_at", sort_order: "desc" }),
    ctx.api.get("/payment_links/totals"),
    ctx.api.get("/payment_links/transactions", { limit: RECENT }),
    orError(ctx.api.get("/subscriptions/link", { page_size: SUBSCRIPTION_LINKS_READ })),
    orError(ctx.api.get("/webhook-endpoints").then((answer) => answer.data)),
  ]);
  if (!ctx.alive()) {
    return;
  }
  const account = ctx.account;
  fill(ctx.main,
    h("h1", { tabindex: "-1" }, title),
    h("section", { class: "card", "aria-labelledby": "account-heading" },
      h("h2", { id: "account-heading" }, account.name),
      h("dl", { class: "facts" },
        h("dt", {}, "Mode"), h("dd", { id: "overview-mode" }, account.mode === "live" ? "Live" : "Test"),
        h("dt", {}, "E-mail"), h("dd", {}, account.email),
        h("dt", {}, "Signed in with"), h("dd", {}, h("code", {}, `${account.api_key_prefix}…`)),
        h("dt", {}, "Merchant id"), h("dd", {}, h("code", {}, account.merchant_id)))),
    received(totals.data),
    recentPayments(payments.data),
    recentSubscriptionPayments(subscriptionLinks),
    h("section", { "aria-labelledby": "recent-heading" },
      h("h2", { id: "recent-heading" }, "Recent payment links"),
      recent.data.data.length === 0
        ? h("p", {}, "No payment links yet. ", h("a", { href: "/dashboard/links/new", "data-nav": true },
          "Create your first payment link"))
        : table("The ten most recent payment links", ["Name", "Amount", "Status", "Uses", "Created"],
          recent.data.data.map((link) => [
            h("a", { href: `/dashboard/links/${link.id}`, "data-nav": true }, link.payment_name),
            money(link.amount, link.currency),
            h("span", { class: `status status-${link.payment_status}` }, label(link.payment_status)),
            `${link.current_uses} of ${link.max_uses}`,
            when(link.created_at),
          ]), { captionHidden: true }),
      h("p", {}, h("a", { href: "/dashboard/links", "data-nav": true }, "All payment links"))),
    webhookHealth(endpoints));
}

/**
 * What the links received, per currency and in USD: confirmed payments of each link's currency (late ones included,
 * other assets never), less what completed refunds returned.
 */
function received(totals) {
  const unpriced = totals.unpriced_transactions;
  return h("section", { "aria-labelledby": "totals-heading" },
    h("h2", { id: "totals-heading" }, "Received"),
    totals.currencies.length === 0
      ? h("p", { id: "totals-none" }, "No payment has been received yet.")
      : [
        h("ul", { class: "totals", id: "totals" },
          totals.currencies.map((total) => h("li", { dataset: { currency: total.currency } },
            h("span", { class: "total-amount" }, String(total.amount_received)), " ", total.currency,
            h("span", { class: "hint total-detail" }, total.transactions === 1 ? "1 payment"
              : `${total.transactions} payments`))),
          h("li", { dataset: { currency: totals.fiat_currency }, id: "totals-fiat" },
            h("span", { class: "total-amount" }, String(totals.total_amount_received)), " ", totals.fiat_currency,
            h("span", { class: "hint total-detail" }, "at the price when confirmed"))),
        unpriced > 0
          ? h("p", { class: "hint", id: "totals-unpriced", dataset: { unpriced: String(unpriced) } },
            `${unpriced} transfer${unpriced === 1 ? "" : "s"} without a USD price: the ${totals.fiat_currency} `
            + "total leaves them out.")
          : null,
        h("p", { class: "hint" }, "Confirmed payments to your payment links in their currency, late ones included, "
          + "less completed refunds; other assets sent to a link are not counted."),
      ]);
}

/** The most recent transfers to the merchant's links, whatever their status. */
function recentPayments(page) {
  return h("section", { id: "recent-payments", "aria-labelledby": "recent-payments-heading" },
    h("h2", { id: "recent-payments-heading" }, "Recent payments"),
    page.data.length === 0
      ? h("p", {}, "No payment to a payment link yet.")
      : table("The most recent payments to payment links", ["Payment link", "Amount", "Status", "Received"],
        page.data.map((transfer) => [
          h("a", { href: `/dashboard/links/${transfer.payment_link_id}`, "data-nav": true }, transfer.payment_name),
          money(transfer.crypto_amount, transfer.asset),
          [
            h("span", { class: `status status-${transfer.status}`, dataset: { status: transfer.status } },
              label(transfer.status)),
            transfer.late ? [" ", h("span", { class: "status status-late" }, "Late")] : null,
            transfer.unexpected_asset ? [" ", h("span", { class: "status status-late" }, "Other asset")] : null,
          ],
          when(transfer.created_at),
        ]), { captionHidden: true }));
}

/**
 * The most recent subscription payments: the API has no merchant-wide list of them, so they are taken from the
 * payments (subscription_transactions) of the newest subscription links, read in one call.
 */
function recentSubscriptionPayments(answer) {
  const heading = h("h2", { id: "recent-subscription-payments-heading" }, "Recent subscription payments");
  let body;
  if (answer instanceof Error) {
    body = h("p", {}, `The subscription payments could not be read: ${answer.message}`);
  } else {
    const payments = answer.links.flatMap((link) => (link.subscription_transactions ?? [])
      .map((payment) => ({ link, payment })));
    const time = ({ payment }) => payment.paid_at ?? payment.created_at ?? "";
    payments.sort((a, b) => (time(a) < time(b) ? 1 : time(a) > time(b) ? -1 : 0));
    const shown = payments.slice(0, RECENT);
    body = shown.length === 0
      ? h("p", {}, "No subscription payment yet.")
      : [
        table("The most recent subscription payments", ["Customer", "Plan", "Amount", "Status", "Paid"],
          shown.map(({ link, payment }) => {
            const plan = payment.plan ?? link.plan ?? {};
            return [
              h("a", { href: `/dashboard/subscriptions/links/${link.id}`, "data-nav": true },
                link.customer_name ?? link.customer_email ?? link.wallet_address ?? link.id),
              plan.name ?? "—",
              tokenAmount(payment.amount, decimalsOf(plan), plan.currency_symbol ?? ""),
              h("span", { class: `status status-${payment.status}`, dataset: { status: payment.status } },
                label(payment.status)),
              when(payment.paid_at ?? payment.created_at),
            ];
          }), { captionHidden: true }),
        answer.total > answer.links.length
          ? h("p", { class: "hint" }, `From the ${answer.links.length} newest of ${answer.total} subscription links.`)
          : null,
      ];
  }
  return h("section", { id: "recent-subscription-payments", "aria-labelledby": "recent-subscription-payments-heading" },
    heading, body,
    h("p", {}, h("a", { href: "/dashboard/subscriptions/links", "data-nav": true }, "All subscription links")));
}

/** The endpoints that need attention, or that none does. */
function webhookHealth(endpoints) {
  const heading = h("h2", { id: "webhook-health-heading" }, "Webhooks");
  const all = h("a", { href: "/dashboard/webhooks", "data-nav": true }, "All webhook endpoints");
  let body;
  if (endpoints instanceof Error) {
    body = h("p", {}, `The webhook endpoints could not be read: ${endpoints.message}`);
  } else if (endpoints.length === 0) {
    body = h("p", {}, "No webhook endpoint yet. ", h("a", { href: "/dashboard/webhooks", "data-nav": true },
      "Add one"), " to be told of payments as they happen.");
  } else {
    const attention = endpoints.filter(failing);
    body = attention.length === 0
      ? h("p", { id: "webhooks-healthy" }, endpoints.length === 1 ? "Your endpoint is delivering. "
        : `All ${endpoints.length} endpoints are delivering. `, all)
      : [
        h("p", {}, attention.length === 1 ? "This endpoint needs attention:" : "These endpoints need attention:"),
        table("Webhook endpoints that need attention", ["Endpoint", "State", "Details"], attention.map((endpoint) => [
          h("a", { href: `/dashboard/webhooks/${endpoint.id}`, "data-nav": true, class: "endpoint-url" },
            endpoint.url),
          endpointState(endpoint),
          stateDetail(endpoint),
        ]), { captionHidden: true }),
        h("p", {}, all),
      ];
  }
  return h("section", { id: "webhook-health", "aria-labelledby": "webhook-health-heading" }, heading, body);
}
