// A new subscription plan, its billing terms signed with the merchant's browser wallet (EIP-712): the terms go to
// POST /subscriptions/plans/typed-data, the wallet (on the plan's network, the account it shared) signs the typed data
// as it comes back (eth_signTypedData_v4), and the same terms with that plan_nonce and the signature go to
// POST /subscriptions/plans. The API validates; each refused field's message is shown next to its control, the
// wallet's problems (none found, declined, another network or account) in #wallet-message[data-problem].
import { ApiError } from "./api.js";
import { clearErrors, field, fill, h, notice, showErrors } from "./dom.js";
import * as wallets from "./wallet.js";

export const title = "New subscription plan";

const UNITS = [["60", "minutes"], ["3600", "hours"], ["86400", "days"], ["604800", "weeks"]];
const DECIMAL = /^\d+(\.\d+)?$/;

/** A number field with a unit beside it; seconds() is what the API takes, or the text as typed for it to refuse. */
function durationField(name, label, { unit = "86400", value = "", hint } = {}) {
  const one = field(name, label, { inputmode: "numeric", autocomplete: "off", value, hint });
  const units = h("select", { name: `${name}_unit`, "aria-label": `${label}: unit` },
    UNITS.map(([seconds, text]) => h("option", { value: seconds, selected: seconds === unit }, text)));
  const wrapper = h("div", { class: "duration" });
  one.input.replaceWith(wrapper);
  wrapper.append(one.input, units);
  one.seconds = () => {
    const text = one.input.value.trim();
    if (!text) {
      return undefined;
    }
    const seconds = Number(text) * Number(units.value);
    return DECIMAL.test(text) && Number.isSafeInteger(seconds) ? seconds : text;
  };
  return one;
}

export function render(ctx) {
  const fields = {
    name: field("name", "Name", { maxlength: "100", hint: "What the customer subscribes to, e.g. Pro monthly" }),
    description: field("description", "Description (optional)", { rows: 3, maxlength: "1000" }),
    kind: field("kind", "Price set as", { value: "value", choices: [
      ["value", "A price in a currency"], ["amount", "Base units of a token"]] }),
    value: field("value", "Price per period", { inputmode: "decimal", autocomplete: "off", placeholder: "9.99" }),
    currency: field("currency", "Currency", { autocomplete: "off", placeholder: "USDC",
      hint: "An upper-case code with a token on the plan's network, e.g. USDC" }),
    token: field("token", "Token contract", { autocomplete: "off", spellcheck: "false", placeholder: "0x…" }),
    amount: field("amount", "Base units per period", { inputmode: "numeric", autocomplete: "off",
      hint: "Whole units of the token's smallest denomination: 10 USDC is 10000000" }),
    interval: durationField("interval", "Billed every", { value: "30" }),
    trial_period: durationField("trial_period", "Free trial (optional)"),
    max_arrears: durationField("max_arrears", "Grace for a late payment (optional)",
      { hint: "How long a due payment may still be collected; the contract allows at least 10 minutes" }),
    auto_cancel_after_missed: field("auto_cancel_after_missed", "Cancel after missed payments in a row (optional)",
      { inputmode: "numeric", autocomplete: "off", hint: "Empty or 0: never cancelled for missed payments" }),
    subscribe_deadline: durationField("subscribe_deadline", "Invitations expire after (optional)",
      { hint: "Empty: an invitation stays open" }),
    destination: field("destination", "Payments go to (optional)", { autocomplete: "off", spellcheck: "false",
      placeholder: "0x…", hint: "The address that receives the payments. Empty: the wallet that signs the plan." }),
    metadata_uri: field("metadata_uri", "Metadata URI (optional)", { type: "url", autocomplete: "off",
      placeholder: "https://… or ipfs://…" }),
  };
  const showKind = () => {
    const byValue = fields.kind.input.value === "value";
    fields.value.row.hidden = !byValue;
    fields.currency.row.hidden = !byValue;
    fields.token.row.hidden = byValue;
    fields.amount.row.hidden = byValue;
  };
  fields.kind.input.addEventListener("change", showKind);
  showKind();

  const summary = h("div", { class: "notice error", role: "alert", tabindex: "-1", hidden: true });
  const walletMessage = h("div", { id: "wallet-message", tabindex: "-1", hidden: true });
  const progress = h("p", { id: "plan-progress", class: "hint", role: "status" });
  const submit = h("button", { type: "submit", id: "sign-plan" }, "Sign with your wallet");
  const form = h("form", { class: "stack", novalidate: true, id: "plan-form" }, summary,
    Object.values(fields).map((one) => one.row),
    h("p", { class: "hint" }, "Your browser wallet signs the billing terms (EIP-712); customers' wallets and the "
      + "subscription contract check that signature. The name, description and metadata URI are not signed."),
    walletMessage,
    h("div", { class: "actions" }, submit,
      h("a", { href: "/dashboard/subscriptions", "data-nav": true, class: "button secondary" }, "Cancel")),
    progress);

  /** The terms as the API takes them; the signing account is the merchant (and, by default, the destination). */
  const terms = (account) => {
    const body = { merchant: account };
    const text = (name) => fields[name].input.value.trim();
    for (const name of ["name", "description", "metadata_uri"]) {
      if (text(name)) {
        body[name] = text(name);
      }
    }
    body.kind = text("kind");
    for (const name of body.kind === "value" ? ["currency", "value"] : ["token", "amount"]) {
      body[name] = text(name);
    }
    for (const name of ["interval", "trial_period", "max_arrears", "subscribe_deadline"]) {
      const seconds = fields[name].seconds();
      if (seconds !== undefined) {
        body[name] = seconds;
      }
    }
    const missed = text("auto_cancel_after_missed");
    if (missed) {
      body.auto_cancel_after_missed = /^\d+$/.test(missed) ? Number(missed) : missed;
    }
    body.destination = text("destination") || account;
    return body;
  };

  const showWalletProblem = (message, problem) => {
    fill(walletMessage, h("p", {}, message));
    walletMessage.className = "notice error";
    walletMessage.setAttribute("role", "alert");
    walletMessage.dataset.problem = problem;
    walletMessage.hidden = false;
    walletMessage.focus();
  };
  const clearWalletProblem = () => {
    walletMessage.replaceChildren();
    walletMessage.hidden = true;
    delete walletMessage.dataset.problem;
  };

  let lastBody = null;
  let idempotencyKey = null;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form, summary);
    clearWalletProblem();
    submit.disabled = true;
    let account = null;
    try {
      const wallet = wallets.requireWallet();
      progress.textContent = "Asking your wallet for its account…";
      account = await wallets.connect(wallet);
      const body = terms(account);
      progress.textContent = "Preparing the terms to sign…";
      const typed = await ctx.api.post("/subscriptions/plans/typed-data", body);
      const chainId = typed.typed_data.domain.chainId;
      progress.textContent = `Checking that your wallet is on the plan's network (chain id ${chainId})…`;
      await wallets.switchChain(wallet, chainId);
      await wallets.checkAccount(wallet, account);
      progress.textContent = `Confirm the signature in ${wallets.walletName() ?? "your wallet"} (account ${account})…`;
      const signature = await wallets.signTypedData(wallet, account, typed.typed_data);
      progress.textContent = "Creating the plan…";
      const signed = { ...body, plan_nonce: Number(typed.typed_data.message.planNonce), merchant_sig: signature };
      // The same signed body sent again (after a lost answer) keeps its Idempotency-Key: never two plans.
      const text = JSON.stringify(signed);
      if (text !== lastBody) {
        lastBody = text;
        idempotencyKey = crypto.randomUUID();
      }
      const created = await ctx.api.post("/subscriptions/plans", signed, { "Idempotency-Key": idempotencyKey });
      ctx.announce("Plan created");
      await ctx.navigate(`/dashboard/subscriptions/plans/${created.id}`);
    } catch (error) {
      progress.textContent = "";
      if (!ctx.alive()) {
        return;
      }
      if (!(error instanceof ApiError)) {
        showWalletProblem(wallets.describe(error), wallets.problem(error));
      } else if (error.code === "invalid_merchant_signature") {
        showWalletProblem(`The wallet's signature is not by ${account ?? "the account it shared"}. Select that `
          + "account in your wallet (or sign again with the one selected) and try again.", "wrong_account");
      } else if (error.status === 400 || error.status === 409) {
        (showErrors(form, summary, error) ?? summary).focus();
      } else {
        ctx.failed(error);
      }
    } finally {
      submit.disabled = false;
    }
  });

  fill(ctx.main,
    h("p", { class: "breadcrumb" }, h("a", { href: "/dashboard/subscriptions", "data-nav": true }, "Subscriptions")),
    h("h1", { tabindex: "-1" }, title),
    h("p", {}, `A plan of ${ctx.account.mode} mode, on that mode's default network. Customers you invite subscribe `
      + "with their own wallet, which then pays each period to the plan's address."),
    form,
    notice("info", h("p", {}, "No wallet in this browser? The API makes plans signed by any wallet library: see ",
      h("a", { href: "/docs" }, "/docs"), " (POST /subscriptions/plans/typed-data).")));
}
