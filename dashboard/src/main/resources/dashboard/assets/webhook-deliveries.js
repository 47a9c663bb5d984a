// An endpoint's delivery history (GET /webhook-endpoints/{id}/deliveries): newest first, filtered by status and event
// type and paged, all kept in the address (/dashboard/webhooks/<id>?status=failed&page=2). Not followed by itself
// (the webhook routes allow 30 calls a minute per key): "Refresh" reads it again.
import { queryString } from "./api.js";
import { field, fill, h, notice, showErrors, table } from "./dom.js";
import { when } from "./format.js";
import { deliveryState } from "./webhooks.js";

/** Fills section with the deliveries of endpoint, as the address's filters ask. */
export async function showDeliveries(ctx, section, endpoint) {
  const base = `/dashboard/webhooks/${endpoint.id}`;
  const values = { status: ctx.query.get("status") ?? "", event_type: ctx.query.get("event_type") ?? "" };
  const page = Math.max(1, Number.parseInt(ctx.query.get("page") ?? "1", 10) || 1);
  const status = field("status", "Status", { value: values.status, choices: [["", "Any"], ["pending", "Pending"],
    ["succeeded", "Delivered"], ["failed", "Failed"]] });
  const eventType = field("event_type", "Event", { value: values.event_type,
    choices: [["", "Any"], ...endpoint.events.map((type) => [type, type])] });
  const summary = notice("error");
  summary.hidden = true;
  const filters = h("form", { class: "filters", novalidate: true, role: "search", "aria-label": "Filter deliveries" },
    summary,
    h("div", { class: "filter-grid" }, status.row, eventType.row),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Apply filters"),
      h("button", { type: "button", class: "secondary", id: "refresh-deliveries",
        on: { click: () => load(true) } }, "Refresh")));
  filters.addEventListener("submit", (event) => {
    event.preventDefault();
    ctx.navigate(base + queryString({ status: status.input.value, event_type: eventType.input.value }));
  });
  const results = h("div", { id: "delivery-results", "aria-live": "polite" });
  fill(section, h("h2", { id: "deliveries-heading" }, "Deliveries"),
    h("p", { class: "hint" }, "One per event sent to this endpoint, newest first. Open one for every attempt and to "
      + "retry it."),
    filters, results);

  async function load(announce) {
    let answer;
    try {
      answer = (await ctx.api.get(`/webhook-endpoints/${endpoint.id}/deliveries`,
        { ...values, page, limit: 20 })).data;
    } catch (error) {
      if (!ctx.alive()) {
        return;
      }
      if (error.status === 400) {
        showErrors(filters, summary, error);
        fill(results, h("p", {}, "Correct the filters above."));
        return;
      }
      if (error.status === 401) {
        throw error;
      }
      fill(results, notice("error", error.message));
      return;
    }
    if (!ctx.alive()) {
      return;
    }
    showPage(results, answer, base, values);
    if (announce) {
      ctx.announce(`${answer.pagination.total_records} deliveries`);
    }
  }
  await load(false);
}

function showPage(results, answer, base, values) {
  const { pagination } = answer;
  const pageLink = (page, text, rel) => h("a", { href: base + queryString({ ...values, page }), "data-nav": true,
    rel, class: "button secondary" }, text);
  fill(results,
    h("p", { id: "deliveries-count" }, pagination.total_records === 1 ? "1 delivery"
      : `${pagination.total_records} deliveries`),
    answer.data.length === 0
      ? h("p", {}, values.status || values.event_type ? "No delivery matches these filters."
        : "Nothing sent yet: deliveries appear here as events of the chosen types happen.")
      : table("Deliveries, newest first", ["Event", "Status", "Attempts", "Last attempt", "Created", ""],
        answer.data.map((delivery) => [
          h("code", { class: "event-type" }, delivery.event_type),
          [deliveryState(delivery), delivery.status === "pending" && delivery.attempts > 0 && delivery.next_attempt_at
            ? h("span", { class: "hint block" }, `Next attempt ${when(delivery.next_attempt_at)}`) : null],
          String(delivery.attempts),
          delivery.last_attempt_at
            ? [when(delivery.last_attempt_at), delivery.last_status_code ? ` · HTTP ${delivery.last_status_code}`
              : delivery.last_error ? h("span", { class: "hint block" }, delivery.last_error) : ""]
            : delivery.next_attempt_at ? `Due ${when(delivery.next_attempt_at)}` : "—",
          when(delivery.created_at),
          h("a", { href: `${base}/deliveries/${delivery.id}`, "data-nav": true, dataset: { delivery: delivery.id },
            "aria-label": `Attempts of the ${delivery.event_type} delivery of ${when(delivery.created_at)}` },
          "Attempts"),
        ]), { captionHidden: true }),
    pagination.total_pages > 1
      ? h("nav", { class: "pager", "aria-label": "Pages of deliveries" },
        pagination.has_prev_page ? pageLink(pagination.current_page - 1, "Previous page", "prev") : null,
        h("span", {}, `Page ${pagination.current_page} of ${pagination.total_pages}`),
        pagination.has_next_page ? pageLink(pagination.current_page + 1, "Next page", "next") : null)
      : null);
}
