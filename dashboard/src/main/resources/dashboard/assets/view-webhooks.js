// Webhooks: the endpoints of this mode (GET /webhook-endpoints) with their state, and adding one
// (POST /webhook-endpoints, with an Idempotency-Key kept while the body is unchanged). The answer carries the
// endpoint's signing secret, the only time the API shows it: it is shown once here, with a copy button.
import { clearErrors, field, fill, h, showErrors, table } from "./dom.js";
import { when } from "./format.js";
import { endpointState, eventChoices, eventList, secretNotice } from "./webhooks.js";

export const title = "Webhooks";

export async function render(ctx) {
  const endpoints = (await ctx.api.get("/webhook-endpoints")).data;
  if (!ctx.alive()) {
    return;
  }
  const list = h("section", { id: "webhook-endpoints", "aria-labelledby": "endpoints-heading" });
  const show = () => fill(list,
    h("h2", { id: "endpoints-heading" }, "Endpoints"),
    endpoints.length === 0
      ? h("p", {}, "No endpoint yet: add one below to be told of payments as they happen.")
      : table(`Webhook endpoints of ${ctx.account.mode} mode`, ["Endpoint", "Description", "Events", "State",
        "Added"], endpoints.map((endpoint) => [
        h("a", { href: `/dashboard/webhooks/${endpoint.id}`, "data-nav": true, class: "endpoint-url" }, endpoint.url),
        endpoint.description || "—",
        eventList(endpoint.events),
        endpointState(endpoint),
        when(endpoint.created_at),
      ]), { captionHidden: true }));
  show();
  fill(ctx.main,
    h("h1", { tabindex: "-1" }, title),
    h("p", {}, `Addresses of yours that we POST ${ctx.account.mode}-mode events to, each signed with the `
      + "endpoint's secret. Failed deliveries are retried for a day; ",
    h("a", { href: "/docs" }, "the API reference"), " describes every event."),
    list,
    createForm(ctx, (created) => {
      endpoints.push(created);
      show();
    }));
}

function createForm(ctx, added) {
  const url = field("url", "Endpoint URL", { type: "url", placeholder: "https://shop.example/hooks/cryptopay",
    autocomplete: "off", spellcheck: "false",
    hint: ctx.account.mode === "live" ? "An https address." : "An https address (http is accepted in test mode)." });
  const description = field("description", "Description (optional)", { maxlength: "500",
    hint: "What it is for, e.g. order fulfilment" });
  const events = eventChoices();
  const summary = h("div", { class: "notice error", role: "alert", tabindex: "-1", hidden: true });
  const submit = h("button", { type: "submit", id: "add-endpoint" }, "Add endpoint");
  const result = h("div", { id: "created-endpoint" });
  const form = h("form", { class: "stack wide", novalidate: true, id: "create-endpoint",
    "aria-labelledby": "create-endpoint-heading" }, summary, url.row, description.row, events.set, submit);
  let lastBody = null;
  let idempotencyKey = null;

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form, summary);
    result.replaceChildren();
    const body = { url: url.input.value.trim(), events: events.chosen() };
    if (description.input.value.trim()) {
      body.description = description.input.value.trim();
    }
    // A retry of the same body (after a lost answer) keeps its key: it answers the same endpoint and secret.
    const text = JSON.stringify(body);
    if (text !== lastBody) {
      lastBody = text;
      idempotencyKey = crypto.randomUUID();
    }
    submit.disabled = true;
    try {
      const created = (await ctx.api.post("/webhook-endpoints", body, { "Idempotency-Key": idempotencyKey })).data;
      if (!ctx.alive()) {
        return;
      }
      form.reset();
      lastBody = null;
      added({ ...created, secret: undefined });
      fill(result, secretNotice("new-secret", `Endpoint added: ${created.url}`, created.secret),
        h("p", {}, h("a", { href: `/dashboard/webhooks/${created.id}`, "data-nav": true, id: "open-new-endpoint" },
          "Open the endpoint and its deliveries")));
      result.querySelector("#new-secret").focus();
      ctx.announce("Webhook endpoint added. Copy its signing secret now: it is shown only once.");
    } catch (error) {
      if (!ctx.alive()) {
        return;
      }
      if (error.status === 401) {
        ctx.failed(error);
      } else {
        (showErrors(form, summary, error) ?? summary).focus();
      }
    } finally {
      submit.disabled = false;
    }
  });
  return h("section", { "aria-labelledby": "create-endpoint-heading" },
    h("h2", { id: "create-endpoint-heading" }, "Add an endpoint"), result, form);
}
