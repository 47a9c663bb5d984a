// Security: the account's security log (GET /account/security_events), newest first, page by page. Entries are
// written by the gateway as requests pass it; nothing here (or anywhere) can change one.
import { queryString } from "./api.js";
import { fill, h, table } from "./dom.js";
import { when } from "./format.js";

export const title = "Security";

/** What each action means, in words. */
const ACTIONS = {
  "api_key.created": "API key created",
  "api_key.revoked": "API key revoked",
  "api_key.first_used": "API key used for the first time",
  "publishable_key.revoked": "Publishable key revoked",
  "receiving_key.changed": "Receiving key changed (where new payment links are paid)",
  "webhook_endpoint.created": "Webhook endpoint created",
  "webhook_endpoint.deleted": "Webhook endpoint deleted",
  "webhook_endpoint.enabled": "Webhook endpoint enabled",
  "webhook_endpoint.secret_rotated": "Webhook signing secret replaced",
  "production_access.requested": "Production access requested",
};

export async function render(ctx) {
  const page = Math.max(1, Number.parseInt(ctx.query.get("page") ?? "1", 10) || 1);
  const answer = await ctx.api.get("/account/security_events", { page, page_size: 50 });
  if (!ctx.alive()) {
    return;
  }
  fill(ctx.main,
    h("h1", { tabindex: "-1" }, title),
    h("p", {}, `Every change to the keys, the receiving key, the webhook endpoints and production access of `
      + `${ctx.account.mode} mode, and each key's first use: which key made it, from which address, when. `
      + "The log cannot be edited. Something you do not recognise? Revoke the key on the Developers page."),
    answer.events.length === 0
      ? h("p", { id: "no-events" }, "Nothing recorded yet.")
      : table(`Security log of ${ctx.account.mode} mode`, ["When", "What", "About", "By key", "From"],
        answer.events.map((event) => [
          when(event.created_at),
          h("span", { class: "security-action", dataset: { action: event.action } },
            ACTIONS[event.action] ?? event.action),
          event.target_id ? h("code", {}, event.target_id) : "",
          h("code", {}, `${event.api_key_prefix}…`),
          h("code", {}, event.client_address),
        ]), { captionHidden: true }),
    answer.total_pages > 1
      ? h("nav", { class: "pager", "aria-label": "Pages of the security log" },
        page > 1 ? h("a", { href: `/dashboard/security${queryString({ page: page - 1 })}`, "data-nav": true,
          class: "button secondary" }, "Previous page") : null,
        h("span", {}, `Page ${page} of ${answer.total_pages}`),
        page < answer.total_pages ? h("a", { href: `/dashboard/security${queryString({ page: page + 1 })}`,
          "data-nav": true, class: "button secondary" }, "Next page") : null)
      : null);
}
