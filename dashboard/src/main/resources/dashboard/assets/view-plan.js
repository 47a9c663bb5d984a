// One subscription plan (GET /subscriptions/plans/{id}): its signed terms, deprecating it (DELETE, confirmed), inviting
// a customer (POST /subscriber/, the invitation's subscription_link_url to copy) and its subscribers and invitations
// (GET /subscriber/plan/{id}, paged in the address), each invitation's address with a copy button.
import { queryString } from "./api.js";
import { clearErrors, copy, field, fill, h, notice, showErrors, table } from "./dom.js";
import { label, when } from "./format.js";
import { SUBSCRIBER_STATUS, duration, every, linkState, price } from "./subscription-format.js";

export const title = "Subscription plan";

const PAGE_SIZE = 20;

export async function render(ctx) {
  const path = `/subscriptions/plans/${ctx.params.id}`;
  let plan;
  try {
    plan = await ctx.api.get(path);
  } catch (error) {
    if (error.status === 404) {
      fill(ctx.main, h("h1", { tabindex: "-1" }, "Plan not found"),
        h("p", {}, "No subscription plan of this mode has this id."),
        h("p", {}, h("a", { href: "/dashboard/subscriptions", "data-nav": true }, "All plans")));
      return;
    }
    throw error;
  }
  if (!ctx.alive()) {
    return;
  }
  const page = Math.max(1, Number.parseInt(ctx.query.get("page") ?? "1", 10) || 1);
  const state = h("section", { id: "plan-state", "aria-labelledby": "plan-state-heading" });
  const message = h("div", { id: "plan-message" });
  const invite = h("section", { id: "invite", "aria-labelledby": "invite-heading" });
  const subscribers = h("section", { id: "subscribers", "aria-labelledby": "subscribers-heading" });
  const deprecate = h("button", { type: "button", class: "danger", id: "deprecate-plan" }, "Deprecate plan");

  const refreshSubscribers = () => showSubscribers(ctx, subscribers, plan, page);
  const update = (current) => {
    plan = current;
    const deprecated = current.status === "deprecated";
    fill(state,
      h("h2", { id: "plan-state-heading" }, "Status"),
      h("p", {}, h("span", { id: "plan-status", class: `status status-${current.status}`,
        dataset: { status: current.status } }, deprecated ? "Deprecated" : "Active"),
      deprecated ? ` since ${when(current.deprecated_at)}: no new subscribers; current ones go on being billed.`
        : " · accepts new subscribers"),
      h("dl", { class: "facts", id: "plan-counts" },
        h("dt", {}, "Subscribers"), h("dd", { id: "total-subscribers" }, String(current.total_subscribers)),
        h("dt", {}, "Active"), h("dd", { id: "active-subscribers" }, String(current.active_subscribers)),
        h("dt", {}, "In their trial"), h("dd", {}, String(current.trial_subscribers)),
        h("dt", {}, "Suspended"), h("dd", {}, String(current.failed_subscribers))));
    deprecate.hidden = deprecated;
    if (deprecated) {
      fill(invite, h("h2", { id: "invite-heading" }, "Invite a customer"),
        h("p", {}, "A deprecated plan takes no new subscribers."));
    }
  };

  deprecate.addEventListener("click", async () => {
    if (!window.confirm(`Deprecate "${plan.name}"? It takes no new subscribers; current ones go on being billed.`)) {
      return;
    }
    deprecate.disabled = true;
    try {
      update((await ctx.api.del(path)).data);
      fill(message, notice("success", "The plan is deprecated."));
      ctx.announce("Plan deprecated");
    } catch (error) {
      fill(message, notice("error", error.message));
    } finally {
      deprecate.disabled = false;
    }
  });

  fill(ctx.main,
    h("p", { class: "breadcrumb" }, h("a", { href: "/dashboard/subscriptions", "data-nav": true }, "Subscriptions")),
    h("h1", { tabindex: "-1" }, plan.name),
    h("p", { class: "lead", id: "plan-price" }, price(plan),
      plan.description ? h("span", { class: "hint" }, ` · ${plan.description}`) : null),
    message,
    state,
    termsSection(plan),
    invite,
    subscribers,
    h("p", {}, deprecate));
  update(plan);
  if (plan.status !== "deprecated") {
    const afterInvite = async () => {
      const current = await ctx.api.get(path);
      if (ctx.alive()) {
        update(current);
        await refreshSubscribers();
      }
    };
    fill(invite, h("h2", { id: "invite-heading" }, "Invite a customer"), inviteForm(ctx, plan, afterInvite));
  }
  await refreshSubscribers();
}

function termsSection(plan) {
  const code = (text) => (text ? h("code", {}, text) : "—");
  return h("section", { id: "plan-terms", "aria-labelledby": "terms-heading" },
    h("h2", { id: "terms-heading" }, "Signed terms"),
    h("dl", { class: "facts" },
      h("dt", {}, "Price"), h("dd", {}, plan.kind === "value"
        ? `${plan.value} ${plan.currency} a period (${plan.amount} base units of ${plan.currency_symbol})`
        : `${plan.amount} base units of ${plan.currency_symbol} a period `
          + `(${plan.formatted_amount} ${plan.currency_symbol})`),
      plan.token ? [h("dt", {}, "Token"), h("dd", {}, code(plan.token))] : null,
      h("dt", {}, "Billed"), h("dd", {}, every(plan.interval)),
      h("dt", {}, "Free trial"), h("dd", {}, duration(plan.trial_period)),
      h("dt", {}, "Grace for a late payment"), h("dd", { id: "plan-grace" }, duration(plan.effective_grace),
        plan.max_arrears < plan.effective_grace
          ? h("span", { class: "hint" }, ` · the contract's minimum (the plan asks ${duration(plan.max_arrears, "none")})`)
          : null),
      h("dt", {}, "Cancelled after"), h("dd", {}, plan.auto_cancel_after_missed
        ? `${plan.auto_cancel_after_missed} missed payment${plan.auto_cancel_after_missed === 1 ? "" : "s"} in a row`
        : "Never for missed payments"),
      h("dt", {}, "Invitations expire after"), h("dd", {}, duration(plan.subscribe_deadline, "Never")),
      h("dt", {}, "Network"), h("dd", {}, `${plan.network?.name ?? "—"} (chain ${plan.chain_id})`),
      h("dt", {}, "Signed by"), h("dd", {}, h("code", { id: "plan-merchant" }, plan.merchant_address)),
      h("dt", {}, "Payments go to"), h("dd", {}, h("code", { id: "plan-destination" }, plan.destination_address)),
      h("dt", {}, "Plan id on chain"), h("dd", {}, code(plan.plan_id)),
      h("dt", {}, "Signed digest"), h("dd", {}, code(plan.digest)),
      h("dt", {}, "Nonce"), h("dd", {}, String(plan.plan_nonce)),
      plan.metadata_uri ? [h("dt", {}, "Metadata"), h("dd", {}, code(plan.metadata_uri))] : null,
      h("dt", {}, "Created"), h("dd", {}, when(plan.created_at))));
}

function inviteForm(ctx, plan, refresh) {
  const fields = {
    customer_name: field("customer_name", "Customer name (optional)", { maxlength: "100", autocomplete: "off" }),
    customer_email: field("customer_email", "Customer e-mail (optional)", { type: "email", autocomplete: "off" }),
    customer_id: field("customer_id", "Your customer id (optional)", { maxlength: "100", autocomplete: "off",
      hint: "Your own reference; customers never see it" }),
    success_return_url: field("success_return_url", "Return address after subscribing (optional)", { type: "url",
      placeholder: "https://shop.example/subscribed" }),
    failure_return_url: field("failure_return_url", "Return address otherwise (optional)", { type: "url" }),
  };
  const summary = h("div", { class: "notice error", role: "alert", tabindex: "-1", hidden: true });
  const result = h("div", { id: "invitation" });
  const submit = h("button", { type: "submit" }, "Invite customer");
  const form = h("form", { class: "stack", novalidate: true, id: "invite-form" }, summary,
    Object.values(fields).map((one) => one.row), h("div", { class: "actions" }, submit));
  let lastBody = null;
  let idempotencyKey = null;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form, summary);
    result.replaceChildren();
    const body = { subscription_plan_id: plan.id };
    for (const [name, one] of Object.entries(fields)) {
      const text = one.input.value.trim();
      if (text) {
        body[name] = text;
      }
    }
    const text = JSON.stringify(body);
    if (text !== lastBody) {
      lastBody = text;
      idempotencyKey = crypto.randomUUID();
    }
    submit.disabled = true;
    try {
      const created = await ctx.api.post("/subscriber", body, { "Idempotency-Key": idempotencyKey });
      Object.values(fields).forEach((one) => { one.input.value = ""; });
      lastBody = null;
      fill(result, notice("success",
        h("p", {}, `Invitation made${created.customer_name ? ` for ${created.customer_name}` : ""}. Send the `
          + "customer this address: it opens the page where they subscribe with their wallet."),
        copyRow("new-invitation-url", created.subscription_link_url, "Invitation address (subscription_link_url)")));
      ctx.announce("Customer invited");
      await refresh();
    } catch (error) {
      if (error.status === 400 || error.status === 409) {
        (showErrors(form, summary, error) ?? summary).focus();
      } else {
        ctx.failed(error);
      }
    } finally {
      submit.disabled = false;
    }
  });
  return h("div", {}, form, result);
}

/** A read-only address with Copy (the clipboard, else the text selected for Ctrl+C). */
function copyRow(id, url, labelText) {
  const copied = h("span", { class: "hint", role: "status" });
  const input = h("input", { id, type: "text", readonly: true, value: url, "aria-label": labelText });
  return h("div", {},
    h("div", { class: "copy-row" }, input,
      h("button", { type: "button", class: "secondary", id: `copy-${id}`, on: { click: async () => {
        const done = await copy(url);
        if (!done) {
          input.select();
        }
        copied.textContent = done ? "Copied." : "Selected: press Ctrl+C (⌘C) to copy.";
      } } }, "Copy")),
    copied);
}

async function showSubscribers(ctx, section, plan, page) {
  const answer = await ctx.api.get(`/subscriber/plan/${plan.id}`, { page, page_size: PAGE_SIZE });
  if (!ctx.alive()) {
    return;
  }
  const pageLink = (number, text, rel) => h("a", { href: `/dashboard/subscriptions/plans/${plan.id}`
    + queryString({ page: number }), "data-nav": true, rel, class: "button secondary" }, text);
  fill(section,
    h("h2", { id: "subscribers-heading" }, answer.total === 1 ? "1 subscriber" : `${answer.total} subscribers`),
    answer.subscribers.length === 0
      ? h("p", {}, "Nobody is invited yet.")
      : table("Subscribers and invitations, newest first", ["Customer", "Status", "Invited", "Subscription", ""],
        answer.subscribers.map((subscriber) => {
          const link = subscriber.subscription_link;
          return [
            h("div", {}, subscriber.customer_name ?? "—", subscriber.customer_email ? h("br") : null,
              subscriber.customer_email ? h("span", { class: "hint" }, subscriber.customer_email) : null),
            h("span", { class: `status status-${subscriber.status}`, dataset: { status: subscriber.status } },
              SUBSCRIBER_STATUS[subscriber.status] ?? label(subscriber.status)),
            when(subscriber.created_at),
            link ? h("a", { href: `/dashboard/subscriptions/links/${link.id}`, "data-nav": true },
              `${linkState(link)[1]}, ${link.paid_periods} paid`) : "Not subscribed yet",
            subscriber.status === "invitation_sent" ? copyButton(subscriber) : "",
          ];
        }), { captionHidden: true }),
    answer.total_pages > 1
      ? h("nav", { class: "pager", "aria-label": "Pages of subscribers" },
        page > 1 ? pageLink(page - 1, "Previous page", "prev") : null,
        h("span", {}, `Page ${page} of ${answer.total_pages}`),
        page < answer.total_pages ? pageLink(page + 1, "Next page", "next") : null)
      : null);
}

function copyButton(subscriber) {
  const copied = h("span", { class: "hint", role: "status" });
  const who = subscriber.customer_name ?? subscriber.customer_email ?? "this customer";
  return h("div", {}, h("button", { type: "button", class: "secondary small", "aria-label": `Copy invitation of ${who}`,
    dataset: { invitationUrl: subscriber.subscription_link_url }, on: { click: async () => {
      const done = await copy(subscriber.subscription_link_url);
      copied.textContent = done ? "Copied." : subscriber.subscription_link_url;
    } } }, "Copy invitation"), " ", copied);
}
