// One webhook endpoint (GET /webhook-endpoints/{id}): its facts and state, rotating its secret (shown once), enabling
// it after it was disabled for failing, deleting it, recovering its failed deliveries since a time, and its delivery
// history (webhook-deliveries.js).
import { clearErrors, field, fill, h, notice, showErrors } from "./dom.js";
import { when } from "./format.js";
import { showDeliveries } from "./webhook-deliveries.js";
import { endpointState, eventList, secretNotice, stateDetail } from "./webhooks.js";

export const title = "Webhook endpoint";

export async function render(ctx) {
  const path = `/webhook-endpoints/${ctx.params.id}`;
  let endpoint;
  try {
    endpoint = (await ctx.api.get(path)).data;
  } catch (error) {
    if (error.status === 404) {
      fill(ctx.main, h("h1", { tabindex: "-1" }, "Webhook endpoint not found"),
        h("p", {}, "No endpoint of this mode has this id; it may have been deleted."),
        h("p", {}, h("a", { href: "/dashboard/webhooks", "data-nav": true }, "All webhook endpoints")));
      return;
    }
    throw error;
  }
  if (!ctx.alive()) {
    return;
  }
  const facts = h("section", { id: "endpoint-facts", "aria-labelledby": "endpoint-facts-heading" });
  const message = h("div", { id: "endpoint-message" });
  const rotate = h("button", { type: "button", id: "rotate-secret", class: "secondary" }, "Rotate secret");
  const enable = h("button", { type: "button", id: "enable-endpoint" }, "Enable endpoint");
  const remove = h("button", { type: "button", id: "delete-endpoint", class: "danger" }, "Delete endpoint");
  const deliveries = h("section", { id: "deliveries", "aria-labelledby": "deliveries-heading" });

  const update = (current) => {
    endpoint = current;
    const detail = stateDetail(current);
    fill(facts,
      h("h2", { id: "endpoint-facts-heading", class: "visually-hidden" }, "Endpoint"),
      h("dl", { class: "facts" },
        h("dt", {}, "State"), h("dd", { id: "endpoint-state" }, endpointState(current),
          detail ? h("span", { class: "hint" }, ` ${detail}`) : null),
        h("dt", {}, "Description"), h("dd", {}, current.description || "—"),
        h("dt", {}, "Events"), h("dd", {}, eventList(current.events)),
        h("dt", {}, "Added"), h("dd", {}, when(current.created_at)),
        h("dt", {}, "Endpoint id"), h("dd", {}, h("code", {}, current.id))));
    enable.hidden = current.enabled;
  };

  const act = async (button, run) => {
    button.disabled = true;
    message.replaceChildren();
    try {
      await run();
    } catch (error) {
      if (error.status === 401) {
        ctx.failed(error);
        return;
      }
      fill(message, notice("error", h("p", {}, error.message),
        error.requestId ? h("p", { class: "hint" }, `Request id: ${error.requestId}`) : null));
    } finally {
      button.disabled = false;
    }
  };

  rotate.addEventListener("click", () => {
    if (!window.confirm("Rotate the signing secret? The current one stops working at once; deliveries from now on "
      + "are signed with the new one.")) {
      return;
    }
    act(rotate, async () => {
      const rotated = (await ctx.api.post(`${path}/rotate-secret`)).data;
      fill(message, secretNotice("rotated-secret", "New signing secret: the old one no longer works.",
        rotated.secret));
      message.querySelector("#rotated-secret").focus();
      ctx.announce("Secret rotated. Copy the new one now: it is shown only once.");
    });
  });
  enable.addEventListener("click", () => act(enable, async () => {
    update((await ctx.api.post(`${path}/enable`)).data);
    fill(message, notice("success", "Enabled: its held deliveries are attempted now."));
    ctx.announce("Webhook endpoint enabled");
  }));
  remove.addEventListener("click", () => {
    if (!window.confirm(`Delete the endpoint ${endpoint.url}? Nothing more is sent to it.`)) {
      return;
    }
    act(remove, async () => {
      await ctx.api.del(path);
      await ctx.navigate("/dashboard/webhooks");
      ctx.main.querySelector("h1")?.after(notice("success", `Deleted the endpoint ${endpoint.url}.`));
      ctx.announce("Webhook endpoint deleted");
    });
  });

  fill(ctx.main,
    h("p", { class: "breadcrumb" }, h("a", { href: "/dashboard/webhooks", "data-nav": true }, "Webhooks")),
    h("h1", { tabindex: "-1", class: "endpoint-url" }, endpoint.url),
    facts,
    h("div", { class: "actions" }, rotate, enable, remove),
    message,
    deliveries,
    recoverForm(ctx, path));
  update(endpoint);
  await showDeliveries(ctx, deliveries, endpoint);
}

/** POST /webhook-endpoints/{id}/recover: every failed delivery since a time gets a fresh schedule. */
function recoverForm(ctx, path) {
  const dayAgo = new Date(Date.now() - 24 * 3600 * 1000);
  const local = new Date(dayAgo.getTime() - dayAgo.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
  const since = field("since", "Failed since", { type: "datetime-local", value: local,
    hint: "Within the last 30 days, in your time zone." });
  const summary = h("div", { class: "notice error", role: "alert", tabindex: "-1", hidden: true });
  const result = h("div", { id: "recover-result" });
  const submit = h("button", { type: "submit", id: "recover-deliveries", class: "secondary" },
    "Recover failed deliveries");
  const form = h("form", { class: "stack", novalidate: true, id: "recover-form" }, summary,
    h("p", { class: "hint" }, "Deliveries that failed all five attempts are not tried again by themselves. "
      + "This tries every one of them since the time below again now (a thousand at a time)."),
    since.row, submit);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form, summary);
    result.replaceChildren();
    const time = new Date(since.input.value);
    submit.disabled = true;
    try {
      const answer = (await ctx.api.post(`${path}/recover`,
        { since: Number.isNaN(time.getTime()) ? since.input.value : time.toISOString() })).data;
      const count = answer.recovered;
      const words = count === 0 ? `No failed delivery since ${when(time)}.`
        : `${count} failed deliver${count === 1 ? "y" : "ies"} since ${when(time)} scheduled again.`;
      fill(result, notice("success", h("p", {}, words),
        answer.has_more ? h("p", {}, "More remain: recover again to schedule the next ones.") : null));
      ctx.announce(words);
    } catch (error) {
      if (error.status === 401) {
        ctx.failed(error);
        return;
      }
      (showErrors(form, summary, error) ?? summary).focus();
    } finally {
      submit.disabled = false;
    }
  });
  return h("section", { "aria-labelledby": "recover-heading" },
    h("h2", { id: "recover-heading" }, "Recover failed deliveries"), form, result);
}
