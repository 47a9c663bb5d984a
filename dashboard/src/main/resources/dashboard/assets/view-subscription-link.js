// One subscription link, a customer's enrolment (GET /subscriptions/link/{id}): its state on chain and whether it is
// billed, the customer and wallet, the periods paid, what is owed, and every payment the chain recorded
// (subscription_transactions). The merchant stops billing it (PUT is_active false, confirmed); a link that no longer
// bills while the contract still holds its subscription offers its cancel_transaction, sent from the merchant's browser
// wallet (the plan's merchant address may end it) or by hand, which ends it for everyone. A period someone collected
// after the stop is flagged. Followed every 5 s while the chain has not confirmed the enrolment, or the end, yet.
// Hooks: #subscription-state[data-state], #stop-billing, #end-on-chain, #end-message[data-problem], #cancel-calldata,
// #collected-after-stop.
import { fill, h, notice, table } from "./dom.js";
import { label, shortHex, when } from "./format.js";
import { decimalsOf, linkState, price, tokenAmount } from "./subscription-format.js";
import * as wallets from "./wallet.js";

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
  const message = h("div", { id: "end-message", role: "status", tabindex: "-1" });
  let ending = false; // a cancel sent, the chain watcher not through yet
  const update = (current) => {
    link = current;
    fill(body, ...content(current, { stop, end, message }));
  };
  const stop = async (button) => {
    if (!window.confirm("Stop billing this subscription? The platform collects nothing more from it; the customer's "
      + "subscription stays on the contract until it is ended there.")) {
      return;
    }
    button.disabled = true;
    try {
      update(await ctx.api.put(path, { is_active: false }));
      ctx.announce("Billing stopped");
      document.getElementById("end-on-chain")?.focus();
    } catch (error) {
      button.disabled = false;
      fill(message, notice("error", error.message));
    }
  };
  const end = async (button) => {
    const transaction = link.cancel_transaction;
    const say = (kind, text, problem) => {
      fill(message, notice(kind, text));
      if (problem) {
        message.dataset.problem = problem;
      } else {
        delete message.dataset.problem;
      }
    };
    button.disabled = true;
    try {
      const wallet = wallets.requireWallet();
      const account = await wallets.connect(wallet);
      await wallets.switchChain(wallet, link.plan.chain_id);
      await wallets.checkAccount(wallet, account);
      say("info", `Confirm the transaction in ${wallets.walletName() ?? "your wallet"} (account ${account})…`);
      const hash = await wallets.sendTransaction(wallet, account, transaction);
      ending = true;
      say("success", `Sent (transaction ${shortHex(hash)}). The subscription shows ended once ${link.plan.network} `
        + "confirms it; only the plan's merchant address or the customer's wallet can end it.");
      ctx.announce("Cancellation sent");
    } catch (error) {
      button.disabled = false;
      say("error", wallets.describe(error, "Nothing was sent."), wallets.problem(error));
      message.focus();
    }
  };
  fill(ctx.main,
    h("p", { class: "breadcrumb" },
      h("a", { href: "/dashboard/subscriptions/links", "data-nav": true }, "Subscription links")),
    h("h1", { tabindex: "-1" }, link.customer_name ?? link.customer_email ?? "Subscription link"),
    body);
  update(link);

  const timer = setInterval(async () => {
    const waiting = link.chain_status === "pending" || (ending && link.chain_status === "subscribed");
    if (document.hidden || !waiting || !ctx.alive()) {
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

function content(link, { stop, end, message }) {
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
        + "confirmed it yet." : "",
      state === "ended" ? " · the contract ended the subscription: nothing can collect it any more." : ""),
      link.collected_after_stop ? h("p", { id: "collected-after-stop", class: "notice error" },
        "A period was collected after billing stopped (by someone other than the platform): see the payments marked "
        + "below, and pay them back to the customer if you owe them.") : null,
      h("dl", { class: "facts" },
        h("dt", {}, "Plan"), h("dd", {}, plan.id
          ? [h("a", { href: `/dashboard/subscriptions/plans/${plan.id}`, "data-nav": true }, plan.name),
            h("span", { class: "hint" }, ` · ${price(plan)}`)]
          : "—"),
        h("dt", {}, "Periods paid"), h("dd", { id: "paid-periods" }, String(link.paid_periods)),
        h("dt", {}, "Owed"), h("dd", { id: "owed" }, tokenAmount(link.owed, decimals, symbol)),
        h("dt", {}, "Next payment due"), h("dd", { id: "next-payment" }, !link.is_active ? "None: billing is stopped"
          : last?.next_billing_at ? when(last.next_billing_at)
          : link.trial_ends_at ? when(link.trial_ends_at) : "—"),
        h("dt", {}, "Subscribed"), h("dd", {}, when(link.subscribed_at)),
        h("dt", {}, "Trial ends"), h("dd", {}, when(link.trial_ends_at)),
        h("dt", {}, "Ends"), h("dd", {}, link.expires_at ? when(link.expires_at) : "No end")),
      link.is_active ? h("p", {}, h("button", { type: "button", class: "danger", id: "stop-billing",
        on: { click: (event) => stop(event.currentTarget) } }, "Stop billing")) : null,
      link.cancel_transaction ? endOnChain(link, end) : null,
      message),
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
            payment.collected_after_stop ? `${label(payment.status)} · collected after the stop` : label(payment.status),
            h("code", { title: payment.tx_hash, dataset: { txHash: payment.tx_hash } }, shortHex(payment.tx_hash)),
            when(payment.paid_at),
          ]), { captionHidden: true }),
      payments.length > 1 ? h("p", { class: "hint" }, "Oldest period first.") : null),
  ];
}

/** The stopped link's subscription still stands on the contract: end it from the wallet, or by hand. */
function endOnChain(link, end) {
  const transaction = link.cancel_transaction;
  return h("div", { id: "end-on-chain-section" },
    h("p", {}, "Billing is stopped, but the customer's subscription and allowance still stand on the contract, where "
      + "anyone may collect a due period. End it there: your plan's merchant address (or the customer's wallet) sends "
      + "one transaction, and nobody can collect it after that."),
    h("p", {}, h("button", { type: "button", id: "end-on-chain", on: { click: (event) => end(event.currentTarget) } },
      "End on chain with your wallet")),
    h("details", { class: "by-hand" }, h("summary", {}, "End it by hand, from any wallet"),
      h("p", {}, `From the plan's merchant address on ${link.plan?.network ?? "the plan's network"}, send to `,
        h("code", {}, transaction.to), ", value 0, this data:"),
      h("code", { id: "cancel-calldata", class: "calldata" }, transaction.data)));
}
