// What the webhook views share: the event catalogue (webhook-service's EventType: the API has no route listing it), an
// endpoint's and a delivery's state in words, the event checkboxes, and a signing secret shown once with a copy button.
import { copy, h, notice } from "./dom.js";
import { when } from "./format.js";

/** Every event type an endpoint can subscribe to, by family, with what makes it happen (docs/webhooks.md). */
export const EVENT_GROUPS = [
  ["Payment links", [
    ["payment.created", "A payment link was created."],
    ["payment.pending", "A transfer to a link was seen, not yet confirmed."],
    ["payment.completed", "Confirmed transfers covered the amount: one use counted."],
    ["payment.failed", "A pending transfer failed, or the link expired unpaid."],
    ["payment.refunded", "The transfer paying a refund was confirmed."],
  ]],
  ["Deposit addresses", [
    ["wallet.deposit", "A confirmed transfer the link did not count (late, or another asset)."],
    ["wallet.withdrawal", "Your wallet moved money out of a deposit address."],
  ]],
  ["Refund transfers", [
    ["transfer.initiated", "A refund was recorded for your wallet to pay."],
    ["transfer.completed", "The refund's transfer was confirmed."],
    ["transfer.failed", "The refund's transfer was reorganised away or never paid."],
  ]],
  ["Subscriptions", [
    ["subscription.created", "A customer's enrolment was confirmed."],
    ["subscription.activated", "A subscriber became active."],
    ["subscription.paused", "A subscriber was suspended or became inactive."],
    ["subscription.cancelled", "A subscriber was cancelled."],
    ["subscription.payment.success", "A period was collected."],
    ["subscription.payment.failed", "Periods were counted as missed."],
    ["subscription.expiring", "A subscription link expires within 3 days."],
  ]],
  ["Account", [
    ["account.key.revoked", "One of your API keys or publishable keys was revoked."],
    ["account.receiving_key.updated", "The receiving key, where every new link's money goes, changed."],
  ]],
];

/** The event types a payment link's life sends (payment.*, wallet.*, transfer.*). */
export const LINK_EVENTS = EVENT_GROUPS.slice(0, 3).flatMap(([, types]) => types.map(([type]) => type));

/** Whether the endpoint needs attention: disabled, or its latest attempts failed (failing_since). */
export function failing(endpoint) {
  return !endpoint.enabled || Boolean(endpoint.failing_since);
}

/** The endpoint's state as a badge: Disabled, Failing or Enabled (the words say it; colour only adds). */
export function endpointState(endpoint) {
  if (!endpoint.enabled) {
    return h("span", { class: "status status-failed", dataset: { state: "disabled" } }, "Disabled");
  }
  if (endpoint.failing_since) {
    return h("span", { class: "status status-failing", dataset: { state: "failing" },
      title: `Every attempt since ${when(endpoint.failing_since)} failed` }, "Failing");
  }
  return h("span", { class: "status status-succeeded", dataset: { state: "enabled" } }, "Enabled");
}

/** What the state means, in a sentence (null when all is well). */
export function stateDetail(endpoint) {
  if (!endpoint.enabled) {
    return `Disabled ${when(endpoint.disabled_at)}: ${endpoint.disabled_reason ?? "its attempts kept failing"}. `
      + "Its deliveries are held until you enable it.";
  }
  if (endpoint.failing_since) {
    return `Every attempt since ${when(endpoint.failing_since)} failed. After 5 days of failures it is disabled.`;
  }
  return null;
}

const DELIVERY_WORDS = { pending: "Pending", succeeded: "Delivered", failed: "Failed" };

/** A delivery's status as a badge. */
export function deliveryState(delivery) {
  return h("span", { class: `status status-${delivery.status}`, dataset: { status: delivery.status } },
    DELIVERY_WORDS[delivery.status] ?? delivery.status);
}

/** The event types as a compact list of code. */
export function eventList(types) {
  return h("ul", { class: "event-list" }, types.map((type) => h("li", {}, h("code", {}, type))));
}

/**
 * The event checkboxes, in a fieldset whose error slot is named "events" (for showErrors): {set, chosen()}.
 */
export function eventChoices() {
  const errorId = "events-error";
  const boxes = [];
  const set = h("fieldset", { class: "choices", dataset: { field: "events" } },
    h("legend", {}, "Events to send"),
    h("p", { class: "hint" }, "Choose at least one. The events cannot be changed later: add another endpoint instead."),
    h("p", { id: errorId, class: "field-error", dataset: { errorFor: "events" } }),
    h("div", { class: "choice-groups" }, EVENT_GROUPS.map(([group, types]) =>
      h("fieldset", { class: "choice-group" },
        h("legend", {}, group),
        types.map(([type, meaning]) => {
          const id = `event-${type.replace(/\./g, "-")}`;
          const box = h("input", { type: "checkbox", id, name: "events", value: type,
            "aria-describedby": `${id}-hint ${errorId}` });
          boxes.push(box);
          return h("div", { class: "check" }, box, h("label", { for: id }, type),
            h("p", { id: `${id}-hint`, class: "hint" }, meaning));
        })))));
  return { set, chosen: () => boxes.filter((box) => box.checked).map((box) => box.value) };
}

/**
 * A signing secret shown this once: the secret, a copy button and the warning. Focusable (tabindex -1) so the view
 * can move the focus to it and screen readers read it at once.
 */
export function secretNotice(id, lead, secret) {
  const copied = h("span", { class: "hint", role: "status" });
  const code = h("code", { class: "secret", id: `${id}-value` }, secret);
  const box = notice("success",
    h("p", {}, h("strong", {}, lead)),
    h("p", {}, "Signing secret: ", code, " ",
      h("button", { type: "button", class: "secondary small", id: `${id}-copy`, on: { click: async () => {
        const done = await copy(secret);
        if (!done) {
          getSelection()?.selectAllChildren(code);
        }
        copied.textContent = done ? "Copied." : "Selected: press Ctrl+C (⌘C) to copy.";
      } } }, "Copy secret"), " ", copied),
    h("p", {}, h("strong", {}, "Store it now: you won't see it again."), " It proves that deliveries come from us "
      + "(X-Service-Timestamped-Signature); if it is lost, rotate it on the endpoint's page."));
  box.id = id;
  box.tabIndex = -1;
  return box;
}
