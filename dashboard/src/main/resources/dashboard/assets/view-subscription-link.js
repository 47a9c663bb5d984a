// One subscription link, a customer's enrolment (GET /subscriptions/link/{id}): its state on chain and whether it is
// billed, the customer and wallet, the periods paid, what is owed, and every payment the chain recorded
// (subscription_transactions). Followed every 5 s while the chain has not confirmed the enrolment yet.
import { fill, h, table } from "./dom.js";
import { label, shortHex, when } from "./format.js";
import { decimalsOf, linkState, price, tokenAmount } from "./subscription-format.js";

export const title = "Subscription link";

const FOLLOW_EVERY_MS = 5000;

export async function render(ctx) {
  const path = `/subscriptions/link/${ctx.params.id}`;
  let link;
  try {
    link = await ctx.api.get(path);
  } catch (error) {
    if (error.status === 404) {
      fill(ctx.main, h("h1", { tabindex: "-1" }, "Subscription link not found"),
        h("p", {}, "No subscription link of this mode has this id."),
        h("p", {}, h("a", { href: "/dashboard/subscriptions/links", "data-nav": true }, "All subscription links")));
      return;
    }
    throw error;
  }
  if (!ctx.alive()) {
    return;
  }
  const body = h("div", { id: "subscription-link" });
  const update = (current) => {
    link = current;
    fill(body, ...content(current));
  };
  fill(ctx.main,
    h("p", { class: "breadcrumb" },
      h("a", { href: "/dashboard/subscriptions/links", "data-nav": true }, "Subscription links")),
    h("h1", { tabindex: "-1" }, link.customer_name ?? link.customer_email ?? "Subscription link"),
    body);
  update(link);

  const timer = setInterval(async () => {
    if (document.hidden || link.chain_status !== "pending" || !ctx.alive()) {
      return;
    }
    try {
      const current = await ctx.api.get(path);
      if (ctx.alive() && current.chain_status !== link.chain_status) {
        ctx.announce(`Subscription ${linkState(current)[1].toLowerCase()}`);
      }
      if (ctx.alive()) {
        update(current);
      }
    } catch {
      // a missed refresh; the next one retries
    }
  }, FOLLOW_EVERY_MS);
  ctx.onLeave(() => clearInterval(timer));
}

function content(link) {
  const plan = link.plan ?? {};
  const decimals = decimalsOf(plan);
  const symbol = plan.currency_symbol ?? "";
  const payments = link.subscription_transactions ?? [];
  const [state, words] = linkState(link);
  const last = payments[payments.length - 1];
  const code = (text) => (text ? h("code", {}, text) : "—");
  return [
    h("section", { "aria-labelledby": "link-state-heading" },
      h("h2", { id: "link-state-heading" }, "Status"),
      h("p", {}, h("span", { id: "subscription-state", class: `status status-${state}`,
        dataset: { state, chainStatus: link.chain_status, paidPeriods: String(link.paid_periods),
          payments: String(payments.length) } }, words),
      link.locked ? " · locked" : "",
      state === "pending" ? " · the customer's subscribe transaction is reported; the chain watcher has not "
        + "confirmed it yet." : ""),
      h("dl", { class: "facts" },
        h("dt", {}, "Plan"), h("dd", {}, plan.id
          ? [h("a", { href: `/dashboard/subscriptions/plans/${plan.id}`, "data-nav": true }, plan.name),
            h("span", { class: "hint" }, ` · ${price(plan)}`)]
          : "—"),
        h("dt", {}, "Periods paid"), h("dd", { id: "paid-periods" }, String(link.paid_periods)),
        h("dt", {}, "Owed"), h("dd", { id: "owed" }, tokenAmount(link.owed, decimals, symbol)),
        h("dt", {}, "Next payment due"), h("dd", {}, last?.next_billing_at ? when(last.next_billing_at)
          : link.trial_ends_at ? when(link.trial_ends_at) : "—"),
        h("dt", {}, "Subscribed"), h("dd", {}, when(link.subscribed_at)),
        h("dt", {}, "Trial ends"), h("dd", {}, when(link.trial_ends_at)),
        h("dt", {}, "Ends"), h("dd", {}, link.expires_at ? when(link.expires_at) : "No end"))),
    h("section", { "aria-labelledby": "link-customer-heading" },
      h("h2", { id: "link-customer-heading" }, "Customer"),
      h("dl", { class: "facts" },
        h("dt", {}, "Name"), h("dd", {}, link.customer_name ?? "—"),
        h("dt", {}, "E-mail"), h("dd", {}, link.customer_email ?? "—"),
        h("dt", {}, "Your customer id"), h("dd", {}, link.customer_id ?? "—"),
        h("dt", {}, "Wallet"), h("dd", {}, h("code", { id: "link-wallet" }, link.wallet_address)),
        h("dt", {}, "Approved"), h("dd", {}, (link.approvals ?? []).length === 0 ? "—"
          : link.approvals.map((approval) => tokenAmount(approval.amount_approved, approval.decimals ?? decimals,
            symbol)).join(", ")),
        h("dt", {}, "Subscribe transaction"), h("dd", {}, code(link.subscribe_hash)),
        h("dt", {}, "Subscription id on chain"), h("dd", {}, code(link.chain_subscription_id)),
        h("dt", {}, "Enrolled"), h("dd", {}, when(link.created_at)))),
    h("section", { id: "link-payments", "aria-labelledby": "link-payments-heading" },
      h("h2", { id: "link-payments-heading" }, "Payments"),
      payments.length === 0
        ? h("p", {}, "No period has been paid yet.")
        : table("Payments, oldest period first", ["Period", "Amount", "Status", "Transaction", "Paid"],
          payments.map((payment) => [
            `${when(payment.starts_at)} – ${when(payment.ends_at)}`,
            tokenAmount(payment.amount, decimals, symbol),
            label(payment.status),
            h("code", { title: payment.tx_hash, dataset: { txHash: payment.tx_hash } }, shortHex(payment.tx_hash)),
            when(payment.paid_at),
          ]), { captionHidden: true }),
      payments.length > 1 ? h("p", { class: "hint" }, "Oldest period first.") : null),
  ];
}
