// One webhook delivery (GET /webhook-deliveries/{id}) with every attempt (time, status code, latency, outcome, error,
// the start of the answer), and "Retry" (POST /webhook-deliveries/{id}/retry): a fresh schedule whose first attempt is
// due now; the delivery is then read again every 2 s until that attempt's result is in (at most 30 s).
import { fill, h, notice, table } from "./dom.js";
import { when } from "./format.js";
import { deliveryState } from "./webhooks.js";

export const title = "Webhook delivery";

const FOLLOW_EVERY_MS = 2000;
const OUTCOMES = { success: "Success", http_error: "HTTP error", redirect: "Redirect (not followed)",
  timeout: "Timed out", connection_error: "Connection failed", refused_address: "Address refused" };
/** Attempts follow each other within seconds: their times show the seconds. */
const precise = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
const FOLLOW_TIMES = 15;

export async function render(ctx) {
  const path = `/webhook-deliveries/${ctx.params.deliveryId}`;
  let delivery;
  try {
    delivery = (await ctx.api.get(path)).data;
  } catch (error) {
    if (error.status === 404) {
      fill(ctx.main, h("h1", { tabindex: "-1" }, "Delivery not found"),
        h("p", {}, "No delivery of this mode has this id."),
        h("p", {}, h("a", { href: `/dashboard/webhooks/${ctx.params.id}`, "data-nav": true }, "The endpoint")));
      return;
    }
    throw error;
  }
  if (!ctx.alive()) {
    return;
  }
  const endpointPath = `/dashboard/webhooks/${delivery.endpoint_id}`;
  const facts = h("section", { id: "delivery-facts", "aria-labelledby": "delivery-facts-heading" });
  const attempts = h("section", { id: "delivery-attempts", "aria-labelledby": "attempts-heading" });
  const message = h("div", { id: "delivery-message" });
  const retry = h("button", { type: "button", id: "retry-delivery" }, "Retry");
  let timer = null;
  ctx.onLeave(() => clearTimeout(timer));

  const update = (current) => {
    delivery = current;
    fill(facts,
      h("h2", { id: "delivery-facts-heading", class: "visually-hidden" }, "Delivery"),
      h("dl", { class: "facts" },
        h("dt", {}, "Status"), h("dd", { id: "delivery-status" }, deliveryState(current),
          current.status === "pending" && current.next_attempt_at
            ? h("span", { class: "hint" }, ` Next attempt ${when(current.next_attempt_at)}`) : null),
        h("dt", {}, "Attempts"), h("dd", { id: "delivery-attempt-count" }, String(current.attempts)),
        current.succeeded_at ? [h("dt", {}, "Delivered"), h("dd", {}, when(current.succeeded_at))] : null,
        h("dt", {}, "Event id"), h("dd", {}, h("code", {}, current.event_id)),
        h("dt", {}, "Created"), h("dd", {}, when(current.created_at))));
    const log = current.attempt_log ?? [];
    fill(attempts,
      h("h2", { id: "attempts-heading" }, "Attempts"),
      log.length === 0
        ? h("p", {}, "Not attempted yet.")
        : table("Every attempt, oldest first", ["#", "Started", "Status code", "Latency", "Outcome", "Error",
          "Answer"], log.map((attempt) => [
          String(attempt.attempt),
          precise.format(new Date(attempt.started_at)),
          attempt.status_code ? h("span", { class: "attempt-status" }, String(attempt.status_code)) : "—",
          `${attempt.latency_ms} ms`,
          h("span", { class: attempt.outcome === "success" ? "outcome-ok" : "outcome-failed" },
            OUTCOMES[attempt.outcome] ?? attempt.outcome),
          attempt.error ?? "—",
          attempt.response_excerpt ? h("code", { class: "excerpt" }, attempt.response_excerpt) : "—",
        ]), { captionHidden: true }));
  };

  /** Reads the delivery again until the fresh schedule's first attempt has a result. */
  const follow = (attemptsBefore, left) => {
    timer = setTimeout(async () => {
      if (!ctx.alive()) {
        return;
      }
      let current;
      try {
        current = (await ctx.api.get(path)).data;
      } catch {
        current = null; // a missed read; the next one retries
      }
      if (!ctx.alive()) {
        return;
      }
      if (current) {
        update(current);
      }
      if (current && current.attempts > attemptsBefore) {
        const code = current.last_status_code ? ` (HTTP ${current.last_status_code})` : "";
        const words = current.status === "succeeded" ? "Delivered." : `Attempt ${current.attempts} failed${code}.`;
        fill(message, notice(current.status === "succeeded" ? "success" : "error", words));
        ctx.announce(words);
      } else if (left > 1) {
        follow(attemptsBefore, left - 1);
      } else {
        fill(message, notice("info", "Scheduled; no result yet (a disabled endpoint holds its deliveries). "
          + "Reload the page later."));
      }
    }, FOLLOW_EVERY_MS);
  };

  retry.addEventListener("click", async () => {
    retry.disabled = true;
    clearTimeout(timer);
    message.replaceChildren();
    try {
      await ctx.api.post(`${path}/retry`);
      fill(message, notice("info", "Scheduled for an attempt now…"));
      ctx.announce("Delivery scheduled for an attempt now");
      follow(delivery.attempts, FOLLOW_TIMES);
    } catch (error) {
      if (error.status === 401) {
        ctx.failed(error);
        return;
      }
      fill(message, notice("error", error.message));
    } finally {
      retry.disabled = false;
    }
  });

  fill(ctx.main,
    h("p", { class: "breadcrumb" }, h("a", { href: "/dashboard/webhooks", "data-nav": true }, "Webhooks"), " › ",
      h("a", { href: endpointPath, "data-nav": true, id: "delivery-endpoint" }, "Endpoint")),
    h("h1", { tabindex: "-1" }, h("code", {}, delivery.event_type), " delivery"),
    facts,
    h("p", {}, retry, " ", h("span", { class: "hint" },
      "Sends the same event again now, whatever its status, with a fresh schedule of five attempts.")),
    message,
    attempts);
  update(delivery);
}
