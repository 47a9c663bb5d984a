// Subscription plans (GET /subscriptions/plans): the list with the API's name search, deprecated filter and paging,
// all kept in the address (/dashboard/subscriptions?deprecated=false&page=2).
import { queryString } from "./api.js";
import { field, fill, h, showErrors, table } from "./dom.js";
import { when } from "./format.js";
import { price, tabs } from "./subscription-format.js";

export const title = "Subscriptions";

const PAGE_SIZE = 20;

export async function render(ctx) {
  const values = { search: ctx.query.get("search") ?? "", deprecated: ctx.query.get("deprecated") ?? "" };
  const page = Math.max(1, Number.parseInt(ctx.query.get("page") ?? "1", 10) || 1);
  const form = filterForm(ctx, values);
  const results = h("section", { "aria-labelledby": "results-heading", "aria-live": "polite" });
  fill(ctx.main,
    h("div", { class: "title-row" },
      h("h1", { tabindex: "-1" }, title),
      h("a", { class: "button", href: "/dashboard/subscriptions/plans/new", "data-nav": true }, "New plan")),
    tabs("plans"),
    form,
    results);
  try {
    const answer = await ctx.api.get("/subscriptions/plans", { ...values, page, page_size: PAGE_SIZE });
    if (ctx.alive()) {
      showPage(results, answer, values);
    }
  } catch (error) {
    if (!ctx.alive()) {
      return;
    }
    if (error.status === 400) {
      showErrors(form, form.querySelector(".notice"), error);
      fill(results, h("h2", { id: "results-heading" }, "No results"), h("p", {}, "Correct the filters above."));
    } else {
      throw error;
    }
  }
}

function filterForm(ctx, values) {
  const search = field("search", "Search", { type: "search", value: values.search, hint: "Plan name",
    maxlength: "100" });
  const deprecated = field("deprecated", "Status", { value: values.deprecated, choices: [["", "Any"],
    ["false", "Active"], ["true", "Deprecated"]] });
  const summary = h("div", { class: "notice error", role: "alert", hidden: true });
  const form = h("form", { class: "filters", novalidate: true, role: "search", "aria-label": "Filter plans" },
    summary,
    h("div", { class: "filter-grid" }, search.row, deprecated.row),
    h("div", { class: "actions" },
      h("button", { type: "submit" }, "Apply filters"),
      h("a", { href: "/dashboard/subscriptions", "data-nav": true, class: "button secondary" }, "Clear")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    ctx.navigate(`/dashboard/subscriptions${queryString({ search: search.input.value.trim(),
      deprecated: deprecated.input.value })}`);
  });
  return form;
}

function showPage(results, answer, values) {
  const current = answer.page;
  const pageLink = (page, text, rel) => h("a", { href: `/dashboard/subscriptions${queryString({ ...values, page })}`,
    "data-nav": true, rel, class: "button secondary" }, text);
  fill(results,
    h("h2", { id: "results-heading" }, answer.total === 1 ? "1 plan" : `${answer.total} plans`),
    answer.plans.length === 0
      ? h("p", {}, answer.total === 0 && !values.search && !values.deprecated
        ? ["No plans yet. ", h("a", { href: "/dashboard/subscriptions/plans/new", "data-nav": true },
          "Make your first plan"), ": its terms are signed with your wallet."]
        : "No plan matches these filters.")
      : table("Subscription plans", ["Name", "Price", "Status", "Subscribers", "Network", "Created"],
        answer.plans.map((plan) => [
          h("a", { href: `/dashboard/subscriptions/plans/${plan.id}`, "data-nav": true }, plan.name),
          price(plan),
          h("span", { class: `status status-${plan.status}` }, plan.status === "deprecated" ? "Deprecated" : "Active"),
          `${plan.active_subscribers} active of ${plan.total_subscribers}`,
          plan.network?.name ?? `Chain ${plan.chain_id}`,
          when(plan.created_at),
        ]), { captionHidden: true }),
    answer.total_pages > 1
      ? h("nav", { class: "pager", "aria-label": "Pages" },
        current > 1 ? pageLink(current - 1, "Previous page", "prev") : null,
        h("span", {}, `Page ${current} of ${answer.total_pages}`),
        current < answer.total_pages ? pageLink(current + 1, "Next page", "next") : null)
      : null);
}
