// Subscription links, the customers' enrolments (GET /subscriptions/link): search, active filter and paging, kept in
// the address (/dashboard/subscriptions/links?is_active=true&page=2).
import { queryString } from "./api.js";
import { field, fill, h, showErrors, table } from "./dom.js";
import { shortHex, when } from "./format.js";
import { linkState, tabs } from "./subscription-format.js";

export const title = "Subscription links";

const PAGE_SIZE = 20;

export async function render(ctx) {
  const values = { search: ctx.query.get("search") ?? "", is_active: ctx.query.get("is_active") ?? "" };
  const page = Math.max(1, Number.parseInt(ctx.query.get("page") ?? "1", 10) || 1);
  const search = field("search", "Search", { type: "search", value: values.search, maxlength: "100",
    hint: "Customer name, e-mail, link id or wallet" });
  const active = field("is_active", "Billed", { value: values.is_active, choices: [["", "Any"], ["true", "Active"],
    ["false", "Stopped"]] });
  const summary = h("div", { class: "notice error", role: "alert", hidden: true });
  const form = h("form", { class: "filters", novalidate: true, role: "search",
    "aria-label": "Filter subscription links" },
  summary,
  h("div", { class: "filter-grid" }, search.row, active.row),
  h("div", { class: "actions" },
    h("button", { type: "submit" }, "Apply filters"),
    h("a", { href: "/dashboard/subscriptions/links", "data-nav": true, class: "button secondary" }, "Clear")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    ctx.navigate(`/dashboard/subscriptions/links${queryString({ search: search.input.value.trim(),
      is_active: active.input.value })}`);
  });
  const results = h("section", { "aria-labelledby": "results-heading", "aria-live": "polite" });
  fill(ctx.main, h("h1", { tabindex: "-1" }, title), tabs("links"), form, results);
  try {
    const answer = await ctx.api.get("/subscriptions/link", { ...values, page, page_size: PAGE_SIZE });
    if (ctx.alive()) {
      showPage(results, answer, values);
    }
  } catch (error) {
    if (!ctx.alive()) {
      return;
    }
    if (error.status === 400) {
      showErrors(form, summary, error);
      fill(results, h("h2", { id: "results-heading" }, "No results"), h("p", {}, "Correct the filters above."));
    } else {
      throw error;
    }
  }
}

function showPage(results, answer, values) {
  const current = answer.page;
  const pageLink = (page, text, rel) => h("a", { href: `/dashboard/subscriptions/links${queryString({ ...values,
    page })}`, "data-nav": true, rel, class: "button secondary" }, text);
  fill(results,
    h("h2", { id: "results-heading" }, answer.total === 1 ? "1 subscription link"
      : `${answer.total} subscription links`),
    answer.links.length === 0
      ? h("p", {}, answer.total === 0 && !values.search && !values.is_active
        ? "No customer has subscribed yet: invite one from a plan."
        : "No subscription link matches these filters.")
      : table("Subscription links", ["Customer", "Plan", "Status", "Paid periods", "Wallet", "Subscribed"],
        answer.links.map((link) => {
          const [state, words] = linkState(link);
          return [
            h("a", { href: `/dashboard/subscriptions/links/${link.id}`, "data-nav": true },
              link.customer_name ?? link.customer_email ?? shortHex(link.id)),
            link.plan?.name ?? "—",
            h("span", { class: `status status-${state}`, dataset: { state } }, words),
            String(link.paid_periods),
            h("code", { title: link.wallet_address }, shortHex(link.wallet_address)),
            when(link.subscribed_at ?? link.created_at),
          ];
        }), { captionHidden: true }),
    answer.total_pages > 1
      ? h("nav", { class: "pager", "aria-label": "Pages" },
        current > 1 ? pageLink(current - 1, "Previous page", "prev") : null,
        h("span", {}, `Page ${current} of ${answer.total_pages}`),
        current < answer.total_pages ? pageLink(current + 1, "Next page", "next") : null)
      : null);
}
