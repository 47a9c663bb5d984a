// Create a payment link (POST /payment_links). The API validates; each refused field's message is shown next to the
// field it names. Amounts go out exactly as typed (a JSON number with the same digits).
import { clearErrors, field, fill, h, showErrors } from "./dom.js";

export const title = "Create payment link";

const DECIMAL = /^\d+(\.\d+)?$/;
const WHOLE = /^\d+$/;

/** A JSON number with exactly these digits (JSON.rawJSON), or the text itself for the API to refuse. */
function number(text, pattern) {
  if (!pattern.test(text)) {
    return text;
  }
  return typeof JSON.rawJSON === "function" ? JSON.rawJSON(text) : Number(text);
}

export async function render(ctx) {
  let currencies = [];
  try {
    currencies = (await ctx.api.get("/payment_links/currencies")).data;
  } catch (error) {
    if (error.status === 401) {
      throw error;
    }
    // the list only helps choosing; the API still checks the code typed
  }
  if (!ctx.alive()) {
    return;
  }
  const fields = {
    payment_name: field("payment_name", "Name", { maxlength: "100", hint: "What the customer pays for" }),
    amount: field("amount", "Amount", { inputmode: "decimal", autocomplete: "off" }),
    currency: currencies.length
      ? field("currency", "Currency", { choices: currencies.map((c) => [c.code, `${c.code} (${c.name})`]) })
      : field("currency", "Currency", { placeholder: "USDC", autocomplete: "off" }),
    description: field("description", "Description (optional)", { rows: 3, maxlength: "1000" }),
    max_uses: field("max_uses", "Uses", { inputmode: "numeric", value: "1",
      hint: "How many payments the link takes; 1 for a one-time payment" }),
    expires_at: field("expires_at", "Expires (optional)", { type: "datetime-local",
      hint: "Default: 24 hours after creation" }),
    customer_email: field("customer_email", "Customer e-mail (optional)", { type: "email", autocomplete: "off" }),
    success_url: field("success_url", "Return address after payment (optional)", { type: "url",
      placeholder: "https://shop.example/thanks" }),
    cancel_url: field("cancel_url", "Return address on cancel (optional)", { type: "url" }),
  };
  const summary = h("div", { class: "notice error", role: "alert", tabindex: "-1", hidden: true });
  const submit = h("button", { type: "submit" }, "Create payment link");
  const form = h("form", { class: "stack", novalidate: true }, summary,
    Object.values(fields).map((one) => one.row),
    h("div", { class: "actions" }, submit,
      h("a", { href: "/dashboard/links", "data-nav": true, class: "button secondary" }, "Cancel")));
  let lastBody = null;
  let idempotencyKey = null;

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form, summary);
    const body = {};
    for (const [name, one] of Object.entries(fields)) {
      const text = one.input.value.trim();
      if (!text) {
        continue;
      }
      if (name === "amount") {
        body.amount = number(text, DECIMAL);
      } else if (name === "max_uses") {
        body.max_uses = number(text, WHOLE);
      } else if (name === "expires_at") {
        const time = new Date(text);
        body.expires_at = Number.isNaN(time.getTime()) ? text : time.toISOString();
      } else {
        body[name] = text;
      }
    }
    // The same body sent again (after a lost answer) keeps its Idempotency-Key, so it never makes two links.
    const text = JSON.stringify(body);
    if (text !== lastBody) {
      lastBody = text;
      idempotencyKey = crypto.randomUUID();
    }
    submit.disabled = true;
    try {
      const created = await ctx.api.post("/payment_links", body, { "Idempotency-Key": idempotencyKey });
      ctx.announce("Payment link created");
      await ctx.navigate(`/dashboard/links/${created.data.id}`);
    } catch (error) {
      submit.disabled = false;
      if (!ctx.alive()) {
        return;
      }
      if (error.status === 400 || error.status === 409) {
        (showErrors(form, summary, error) ?? summary).focus();
      } else {
        ctx.failed(error);
      }
    }
  });

  fill(ctx.main, h("h1", { tabindex: "-1" }, title), form);
}
