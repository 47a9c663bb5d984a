// Payment links: the list with the API's filters, sorting and paging (GET /payment_links). The filters live in the
// address (/dashboard/links?status=completed&page=2), so a view can be bookmarked, shared and gone back to.
import { queryString } from "./api.js";
import { field, fill, h, notice, showErrors, table } from "./dom.js";
import { label, money, when } from "./format.js";

export const title = "Payment links";

const FILTERS = ["search", "status", "is_active", "currency", "min_amount", "max_amount", "created_from",
  "created_to", "sort_by", "sort_order", "limit"];

export async function render(ctx) {
  const values = Object.fromEntries(FILTERS.map((name) => [name, ctx.query.get(name) ?? ""]));
  const page = Math.max(1, Number.parseInt(ctx.query.get("page") ?? "1", 10) || 1);
  const form = filterForm(ctx, values);
  const summary = form.querySelector(".notice");
  const results = h("section", { "aria-labelledby": "results-heading", "aria-live": "polite" });
  fill(ctx.main,
    h("div", { class: "title-row" },
      h("h1", { tabindex: "-1" }, title),
      h("a", { class: "button", href: "/dashboard/links/new", "data-nav": true }, "Create payment link")),
    form,
    results);
  try {
    const answer = await ctx.api.get("/payment_links", { ...values, page });
    if (ctx.alive()) {
      showPage(ctx, results, answer.data, values);
    }
  } catch (error) {
    if (!ctx.alive()) {
      return;
    }
    if (error.status === 400) {
      showErrors(form, summary, error);
      fill(results, h("h2", { id: "results-heading" }, "No results"),
        h("p", {}, "Correct the filters above."));
    } else {
      throw error;
    }
  }
}

function filterForm(ctx, values) {
  const fields = [
    field("search", "Search", { type: "search", value: values.search, hint: "Name or description" }),
    field("status", "Status", { value: values.status, choices: [["", "Any"], ["pending", "Pending"],
      ["processing", "Processing"], ["completed", "Completed"], ["expired", "Expired"], ["cancelled", "Cancelled"]] }),
    field("is_active", "Active", { value: values.is_active, choices: [["", "Any"], ["true", "Active"],
      ["false", "Inactive"]] }),
    field("currency", "Currency", { value: values.currency, placeholder: "USDC", autocomplete: "off" }),
    field("min_amount", "Amount from", { value: values.min_amount, inputmode: "decimal" }),
    field("max_amount", "Amount to", { value: values.max_amount, inputmode: "decimal" }),
    field("created_from", "Created from", { type: "date", value: values.created_from }),
    field("created_to", "Created to", { type: "date", value: values.created_to }),
    field("sort_by", "Sort by", { value: values.sort_by, choices: [["", "Created"], ["updated_at", "Updated"],
      ["amount", "Amount"], ["name", "Name"]] }),
    field("sort_order", "Order", { value: values.sort_order, choices: [["", "Newest first"], ["asc", "Oldest first"]] }),
    field("limit", "Per page", { value: values.limit, choices: [["", "20"], ["50", "50"], ["100", "100"]] }),
  ];
  const summary = notice("error");
  summary.hidden = true;
  const form = h("form", { class: "filters", novalidate: true, role: "search", "aria-label": "Filter payment links" },
    summary,
    h("div", { class: "filter-grid" }, fields.map((one) => one.row)),
    h("div", { class: "actions" },
      h("button", { type: "submit" }, "Apply filters"),
      h("a", { href: "/dashboard/links", "data-nav": true, class: "button secondary" }, "Clear")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const chosen = {};
    for (const one of fields) {
      chosen[one.input.name] = one.input.value.trim();
    }
    ctx.navigate(`/dashboard/links${queryString(chosen)}`);
  });
  return form;
}

function showPage(ctx, results, data, values) {
  const { pagination } = data;
  const pageLink = (page, text, rel) => h("a", { href: `/dashboard/links${queryString({ ...values, page })}`,
    "data-nav": true, rel, class: "button secondary" }, text);
  fill(results,
    h("h2", { id: "results-heading" }, pagination.total_records === 1 ? "1 payment link"
      : `${pagination.total_records} payment links`),
    data.data.length === 0
      ? h("p", {}, "No payment link matches these filters.")
      : table("Payment links", ["Name", "Amount", "Status", "Active", "Uses", "Created", "Expires"],
        data.data.map((link) => [
          h("a", { href: `/dashboard/links/${link.id}`, "data-nav": true }, link.payment_name),
          money(link.amount, link.currency),
          h("span", { class: `status status-${link.payment_status}` }, label(link.payment_status)),
          link.is_active ? "Yes" : "No",
          `${link.current_uses} of ${link.max_uses}`,
          when(link.created_at),
          when(link.expires_at),
        ]), { captionHidden: true }),
    pagination.total_pages > 1
      ? h("nav", { class: "pager", "aria-label": "Pages" },
        pagination.has_prev_page ? pageLink(pagination.current_page - 1, "Previous page", "prev") : null,
        h("span", {}, `Page ${pagination.current_page} of ${pagination.total_pages}`),
        pagination.has_next_page ? pageLink(pagination.current_page + 1, "Next page", "next") : null)
      : null);
}
