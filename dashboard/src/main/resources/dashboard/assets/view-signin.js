// Sign in: the API key and the private key file the merchant holds (PKCS#8 PEM, or the one-line Ed25519: form),
// imported here as a key that can sign but cannot be read back. GET /account, signed with it, checks the pair before
// anything is kept; "remember on this device" keeps it in this browser's IndexedDB for the days chosen (1, 7, 30 — the
// default — or 90), otherwise only in this tab.
import { ApiError, signedClient } from "./api.js";
import { clearErrors, field, fill, h, showErrors } from "./dom.js";
import * as sessions from "./session.js";
import { importPrivateKey, KeyError } from "./signing.js";

export const title = "Sign in";
/** Shown without a session. */
export const open = true;

const API_KEY = /^mk_(test|live)_[A-Z2-7]{32}$/;

/** The words of a remembered period: "1 day", "30 days". */
export function daysText(days) {
  return days === 1 ? "1 day" : `${days} days`;
}

/**
 * "Remember on this device" with how long (shown once it is ticked; 30 days unless the merchant chooses otherwise):
 * {rows, days()} where days() is 0 when it is not ticked. idPrefix keeps the ids apart ("remember", "remember-new").
 */
export function rememberChoice(idPrefix) {
  const box = h("input", { type: "checkbox", id: idPrefix, name: "remember", "aria-controls": `${idPrefix}-for-row`,
    "aria-describedby": `${idPrefix}-hint` });
  const hintId = `${idPrefix}-for-hint`;
  const period = h("select", { id: `${idPrefix}-for`, name: "remember_for", "aria-describedby": hintId },
    sessions.REMEMBER_DAYS.map((days) => h("option", { value: String(days),
      selected: days === sessions.DEFAULT_REMEMBER_DAYS }, daysText(days))));
  const periodRow = h("div", { class: "field remember-for", id: `${idPrefix}-for-row`, hidden: true },
    h("label", { for: `${idPrefix}-for` }, "Remember for"),
    h("p", { class: "hint", id: hintId }, "After that, this browser erases the key and you sign "
      + "in again with your key file."),
    period);
  box.addEventListener("change", () => { periodRow.hidden = !box.checked; });
  const rows = [
    h("div", { class: "check" }, box,
      h("label", { for: idPrefix }, "Remember on this device"),
      h("p", { class: "hint", id: `${idPrefix}-hint` }, "Keeps the key in this browser (it cannot be read back, "
        + "only used to sign) until you sign out, forget this device on the Developers page, or the period below "
        + "ends. Leave it off on a shared computer: the key is then forgotten when this tab closes.")),
    periodRow,
  ];
  return { rows, days: () => (box.checked ? sessions.rememberDays(period.value) : 0) };
}

/** Where the gateway's refusal of the pair belongs: the API key or the private key. */
const KEY_FIELD = {
  missing_api_key: "api_key",
  malformed_api_key: "api_key",
  invalid_api_key: "api_key",
  api_key_revoked: "api_key",
  publishable_key_not_allowed: "api_key",
  invalid_signature: "private_key",
};

export function render(ctx) {
  const apiKey = field("api_key", "API key", {
    autocomplete: "off", spellcheck: "false", placeholder: "mk_test_…",
    hint: "Starts with mk_test_ or mk_live_. It was shown once, when the key was made.",
  });
  const keyFile = field("private_key", "Private key file", {
    type: "file", accept: ".pem,.key,.txt,text/plain",
    hint: "The PEM file saved when the key was made (or a file holding the one-line Ed25519: form). "
      + "It stays in this browser: only signatures are sent.",
  });
  const pasted = field("private_key_text", "Or paste the private key", {
    rows: 4, spellcheck: "false", autocomplete: "off",
  });
  const remember = rememberChoice("remember");
  const summary = h("div", { class: "notice error", role: "alert", hidden: true });
  const submit = h("button", { type: "submit" }, "Sign in");
  const form = h("form", { novalidate: true, class: "stack", "aria-describedby": "signin-intro" },
    summary,
    apiKey.row,
    keyFile.row,
    h("details", {}, h("summary", {}, "Paste the key instead of choosing a file"), pasted.row),
    remember.rows,
    submit);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form, summary);
    submit.disabled = true;
    try {
      const key = apiKey.input.value.trim();
      const file = keyFile.input.files[0];
      const text = file ? await file.text() : pasted.input.value;
      const problems = [];
      if (!API_KEY.test(key)) {
        problems.push({ field: "api_key", message: "Expected mk_test_ or mk_live_ followed by 32 characters A-Z2-7." });
      }
      if (!text.trim()) {
        problems.push({ field: "private_key", message: "Choose your private key file (or paste the key)." });
      }
      if (problems.length) {
        throw new ApiError(400, "validation_failed", problems[0].message, problems);
      }
      let signingKey;
      try {
        signingKey = await importPrivateKey(text);
      } catch (error) {
        if (error instanceof KeyError) {
          throw new ApiError(400, "invalid_private_key", error.message, [{ field: "private_key", message: error.message }]);
        }
        throw error;
      }
      let account;
      try {
        account = await signedClient({ apiKey: key, signingKey }).get("/account");
      } catch (error) {
        const target = KEY_FIELD[error.code];
        if (target) {
          const message = error.code === "invalid_signature"
            ? "This private key does not belong to this API key." : error.message;
          throw new ApiError(error.status, error.code, message, [{ field: target, message }], error.requestId);
        }
        if (error.code === "timestamp_expired" || error.code === "timestamp_in_future") {
          throw new ApiError(error.status, error.code,
            "This computer's clock is more than 5 minutes off; correct it and sign in again.");
        }
        throw error;
      }
      await sessions.start(key, signingKey, remember.days());
      pasted.input.value = "";
      await ctx.signedIn(account);
    } catch (error) {
      submit.disabled = false;
      if (!ctx.alive()) {
        return;
      }
      const first = showErrors(form, summary, error);
      (first ?? summary).focus?.();
    }
  });

  fill(ctx.main,
    h("h1", { tabindex: "-1" }, title),
    h("p", { id: "signin-intro" }, "Sign in with one of your API keys and its private key. Every request this "
      + "dashboard makes is signed in your browser, exactly as your own integration signs it."),
    form,
    ctx.signupEnabled ? h("p", {}, "No account yet? ", h("a", { href: "/dashboard/signup", "data-nav": true },
      "Sign up for a test account")) : null);
}
