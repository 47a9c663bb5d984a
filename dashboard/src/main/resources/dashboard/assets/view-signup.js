// Sign up (when the operator allows it): the key pair is made in this browser with WebCrypto, only the public key is
// sent (POST /api/v1/signup), and the private key is offered once as a file. The new account is in test mode; live
// keys need the operator's approval of production access (Developers).
import { publicPost, signedClient } from "./api.js";
import { clearErrors, copy, download, field, fill, h, notice, showErrors } from "./dom.js";
import * as sessions from "./session.js";
import { generateEd25519 } from "./signing.js";
import { rememberChoice } from "./view-signin.js";

export const title = "Sign up";
/** Shown without a session. */
export const open = true;

export function render(ctx) {
  const name = field("name", "Business name", { autocomplete: "organization", maxlength: "200" });
  const email = field("email", "E-mail address", { type: "email", autocomplete: "email" });
  const summary = h("div", { class: "notice error", role: "alert", tabindex: "-1", hidden: true });
  const submit = h("button", { type: "submit" }, "Create test account");
  const form = h("form", { novalidate: true, class: "stack" }, summary, name.row, email.row,
    h("p", { class: "hint" }, "Your key pair is made in this browser; only its public key is sent. You will "
      + "save the private key as a file: it is the only way to sign in again."),
    submit);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form, summary);
    submit.disabled = true;
    try {
      const pair = await generateEd25519();
      const created = await publicPost("/signup", {
        name: name.input.value,
        email: email.input.value,
        public_key: pair.publicKeyPem,
      });
      if (ctx.alive()) {
        showCreated(ctx, created, pair);
      }
    } catch (error) {
      submit.disabled = false;
      if (ctx.alive()) {
        (showErrors(form, summary, error) ?? summary).focus();
      }
    }
  });

  fill(ctx.main,
    h("h1", { tabindex: "-1" }, title),
    h("p", {}, "A test account: payment links, keys and webhooks against test networks. Going live is one request "
      + "away once you are in."),
    form,
    h("p", {}, "Already have keys? ", h("a", { href: "/dashboard/signin", "data-nav": true }, "Sign in")));
}

/** The new account's keys: the API key to copy, the private key to save, then on into the dashboard. */
function showCreated(ctx, created, pair) {
  const prefix = created.api_key.slice(0, 12);
  const filename = `cryptopay-${prefix}.pem`;
  let privateKeyPem = pair.privateKeyPem;
  const saved = h("p", { class: "hint", id: "key-saved", role: "status" });
  const enter = h("button", { type: "button", id: "continue", disabled: true }, "Continue to the dashboard");
  const save = h("button", { type: "button", id: "download-key", on: { click: () => {
    download(filename, privateKeyPem);
    saved.textContent = `Offered as ${filename}. Keep it safe: whoever holds it and the API key acts as you.`;
    enter.disabled = false;
  } } }, "Download private key");
  const apiKey = h("code", { id: "new-api-key", class: "secret" }, created.api_key);
  const copied = h("span", { class: "hint", role: "status" });
  const remember = rememberChoice("remember-new");
  enter.addEventListener("click", async () => {
    enter.disabled = true;
    const session = await sessions.start(created.api_key, pair.signingKey, remember.days());
    privateKeyPem = null;
    try {
      await ctx.signedIn(await signedClient(session).get("/account"));
    } catch (error) {
      enter.disabled = false;
      ctx.failed(error);
    }
  });
  fill(ctx.main,
    h("h1", { tabindex: "-1" }, "Your test account is ready"),
    notice("info", h("p", {}, "Save both now: the API key and the private key are shown only once. Neither can "
      + "be shown again; a lost key is replaced by making a new one.")),
    h("dl", { class: "facts" },
      h("dt", {}, "API key"), h("dd", {}, apiKey, " ",
        h("button", { type: "button", class: "secondary", on: { click: async () => {
          copied.textContent = (await copy(created.api_key)) ? "Copied." : "Select the key and copy it.";
        } } }, "Copy"), " ", copied),
      h("dt", {}, "Publishable key"), h("dd", {}, h("code", {}, created.publishable_key)),
      h("dt", {}, "Mode"), h("dd", {}, "Test")),
    h("p", {}, save),
    saved,
    remember.rows,
    h("p", {}, enter));
  ctx.main.querySelector("h1").focus();
  ctx.announce("Your test account is ready");
}
