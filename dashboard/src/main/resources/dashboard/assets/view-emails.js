// E-mails: what the platform e-mails this mode's customers in the merchant's name. The settings
// (GET/PUT /notifications/settings: the name shown, the support address replies go to, which e-mails are sent) and
// the e-mail log (GET /notifications/emails), newest first, page by page, filtered by status.
import { queryString } from "./api.js";
import { clearErrors, field, fill, h, notice, showErrors, table } from "./dom.js";
import { when } from "./format.js";

export const title = "E-mails";

/** Every e-mail, in the API's order, with what it is in words. */
const EMAILS = [
  ["subscription_invitation", "Invitation to subscribe", "When you invite a customer with an e-mail address to a plan."],
  ["subscription_active", "Subscription active", "When a customer's subscription becomes active."],
  ["subscription_reminder", "Payment reminder",
    "3 days before each payment: whether the wallet's balance and allowance will cover it, read on chain."],
  ["subscription_receipt", "Subscription receipt", "For each period collected: amount, network, transaction."],
  ["subscription_payment_missed", "Payment missed",
    "When a period could not be collected: what was missed, what to do, when the subscription ends."],
  ["subscription_cancelled", "Subscription cancelled", "When a subscription is cancelled."],
  ["payment_receipt", "Payment receipt", "When a payment link with a customer e-mail is paid."],
];

const STATUSES = [
  ["", "Any status"],
  ["pending", "Pending"],
  ["sent", "Sent"],
  ["failed", "Failed"],
  ["given_up", "Given up"],
];

const STATUS_WORDS = {
  pending: "Pending",
  sent: "Sent",
  failed: "Failed (refused)",
  given_up: "Given up",
};

export async function render(ctx) {
  const page = Math.max(1, Number.parseInt(ctx.query.get("page") ?? "1", 10) || 1);
  const status = STATUSES.some(([value]) => value && value === ctx.query.get("status")) ? ctx.query.get("status") : "";
  const [settings, log] = await Promise.all([
    ctx.api.get("/notifications/settings"),
    ctx.api.get("/notifications/emails", { page, limit: 25, ...(status ? { status } : {}) }),
  ]);
  if (!ctx.alive()) {
    return;
  }
  fill(ctx.main,
    h("h1", { tabindex: "-1" }, title),
    h("p", {}, `What we e-mail your customers in ${ctx.account.mode} mode, in your name. Customers get e-mails only `
      + "where you gave their address."),
    settingsForm(ctx, settings.data),
    logSection(ctx, log.data, page, status));
}

function settingsForm(ctx, settings) {
  const name = field("display_name", "Name shown as the sender", { value: settings.display_name ?? "",
    maxlength: "100", hint: "Leave empty to use your account's name." });
  const support = field("support_email", "Support address (replies go here)", { type: "email",
    value: settings.support_email ?? "", maxlength: "254", autocomplete: "email",
    hint: "Leave empty and replies go nowhere." });
  const boxes = EMAILS.map(([key, label, meaning]) => {
    const id = `email-${key}`;
    const box = h("input", { type: "checkbox", id, name: `emails.${key}`, value: key,
      checked: settings.emails[key] !== false, "aria-describedby": `${id}-hint` });
    return { key, box, row: h("div", { class: "check" }, box, h("label", { for: id }, label),
      h("p", { id: `${id}-hint`, class: "hint" }, meaning)) };
  });
  const choices = h("fieldset", { class: "choices" }, h("legend", {}, "E-mails to send"),
    boxes.map(({ row }) => row));
  const summary = h("div", { class: "notice error", role: "alert", tabindex: "-1", hidden: true });
  const saved = h("div", { id: "settings-saved" });
  const submit = h("button", { type: "submit", id: "save-email-settings" }, "Save e-mail settings");
  const form = h("form", { class: "stack wide", novalidate: true, id: "email-settings",
    "aria-labelledby": "email-settings-heading" }, summary, name.row, support.row, choices, submit);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form, summary);
    saved.replaceChildren();
    const emails = {};
    boxes.forEach(({ key, box }) => { emails[key] = box.checked; });
    const body = {
      display_name: name.input.value.trim() || null,
      support_email: support.input.value.trim() || null,
      emails,
    };
    submit.disabled = true;
    try {
      const updated = (await ctx.api.put("/notifications/settings", body)).data;
      if (!ctx.alive()) {
        return;
      }
      fill(saved, notice("success", h("p", {}, `Saved. E-mails of ${updated.livemode ? "live" : "test"} mode `
        + "written from now on use these settings.")));
      ctx.announce("E-mail settings saved");
    } catch (error) {
      if (!ctx.alive()) {
        return;
      }
      (showErrors(form, summary, error) ?? summary).focus();
    } finally {
      submit.disabled = false;
    }
  });
  return h("section", { "aria-labelledby": "email-settings-heading" },
    h("h2", { id: "email-settings-heading" }, "Settings"), form, saved);
}

function logSection(ctx, log, page, status) {
  const filter = field("status", "Status", { choices: STATUSES, value: status });
  filter.input.addEventListener("change", () => {
    ctx.navigate(`/dashboard/emails${queryString(filter.input.value ? { status: filter.input.value } : {})}`);
  });
  const pages = log.pagination.total_pages;
  const link = (number) => `/dashboard/emails${queryString({ page: number, ...(status ? { status } : {}) })}`;
  return h("section", { id: "email-log", "aria-labelledby": "email-log-heading" },
    h("h2", { id: "email-log-heading" }, "Sent e-mails"),
    h("div", { class: "filters" }, filter.row),
    log.data.length === 0
      ? h("p", { id: "no-emails" }, status ? "No e-mail with this status." : "No e-mail written yet.")
      : table(`E-mails of ${ctx.account.mode} mode`, ["Written", "To", "Subject", "Status", "Attempts"],
        log.data.map((email) => [
          when(email.created_at),
          email.recipient,
          email.subject,
          h("span", { class: "email-status", dataset: { status: email.status },
            title: email.last_error ?? "" }, STATUS_WORDS[email.status] ?? email.status,
          email.last_error ? h("span", { class: "hint" }, ` — ${email.last_error}`) : null),
          String(email.attempts),
        ]), { captionHidden: true }),
    pages > 1
      ? h("nav", { class: "pager", "aria-label": "Pages of the e-mail log" },
        page > 1 ? h("a", { href: link(page - 1), "data-nav": true, class: "button secondary" }, "Previous page")
          : null,
        h("span", {}, `Page ${page} of ${pages}`),
        page < pages ? h("a", { href: link(page + 1), "data-nav": true, class: "button secondary" }, "Next page")
          : null)
      : null);
}
