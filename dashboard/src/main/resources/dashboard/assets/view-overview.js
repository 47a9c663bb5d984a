// Overview: the account, the most recent payment links, what completed links took in, per currency, and the webhook
// endpoints that need attention (disabled, or failing: their latest attempts failed).
import { fill, h, table } from "./dom.js";
import { label, money, sum, when } from "./format.js";
import { endpointState, failing, stateDetail } from "./webhooks.js";

export const title = "Overview";

export async function render(ctx) {
  const [recent, completed, endpoints] = await Promise.all([
    ctx.api.get("/payment_links", { limit: 10, sort_by: "created_at", sort_order: "desc" }),
    ctx.api.get("/payment_links", { status: "completed", limit: 100, sort_by: "created_at", sort_order: "desc" }),
    // The overview still shows the rest when the webhooks cannot be read (a limit reached, the service away).
    ctx.api.get("/webhook-endpoints").then((answer) => answer.data, (error) => {
      if (error.status === 401) {
        throw error;
      }
      return error;
    }),
  ]);
  if (!ctx.alive()) {
    return;
  }
  const account = ctx.account;
  const totals = new Map();
  for (const link of completed.data.data) {
    const terms = totals.get(link.currency) ?? [];
    terms.push([link.amount, link.current_uses]);
    totals.set(link.currency, terms);
  }
  const completedCount = completed.data.pagination.total_records;
  fill(ctx.main,
    h("h1", { tabindex: "-1" }, title),
    h("section", { class: "card", "aria-labelledby": "account-heading" },
      h("h2", { id: "account-heading" }, account.name),
      h("dl", { class: "facts" },
        h("dt", {}, "Mode"), h("dd", { id: "overview-mode" }, account.mode === "live" ? "Live" : "Test"),
        h("dt", {}, "E-mail"), h("dd", {}, account.email),
        h("dt", {}, "Signed in with"), h("dd", {}, h("code", {}, `${account.api_key_prefix}…`)),
        h("dt", {}, "Merchant id"), h("dd", {}, h("code", {}, account.merchant_id)))),
    h("section", { "aria-labelledby": "totals-heading" },
      h("h2", { id: "totals-heading" }, "Received"),
      totals.size === 0
        ? h("p", {}, "No payment link has been paid in full yet.")
        : [
          h("ul", { class: "totals", id: "totals" }, [...totals].map(([currency, terms]) =>
            h("li", { dataset: { currency } }, h("span", { class: "total-amount" }, sum(terms)), " ", currency))),
          h("p", { class: "hint" }, completedCount > 100
            ? `Amount × uses of the latest 100 of ${completedCount} completed links.`
            : `Amount × uses of ${completedCount} completed link${completedCount === 1 ? "" : "s"}.`),
        ]),
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
