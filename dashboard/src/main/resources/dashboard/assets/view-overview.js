// Overview: the account, the most recent payment links and what completed links took in, per currency.
import { fill, h, table } from "./dom.js";
import { label, money, sum, when } from "./format.js";

export const title = "Overview";

export async function render(ctx) {
  const [recent, completed] = await Promise.all([
    ctx.api.get("/payment_links", { limit: 10, sort_by: "created_at", sort_order: "desc" }),
    ctx.api.get("/payment_links", { status: "completed", limit: 100, sort_by: "created_at", sort_order: "desc" }),
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
      h("p", {}, h("a", { href: "/dashboard/links", "data-nav": true }, "All payment links"))));
}
