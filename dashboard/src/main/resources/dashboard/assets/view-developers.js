// Developers: the API keys of this mode (list, create with a key pair made in this browser, revoke), the publishable
// keys, the receiving key (the xpub links are paid to), the request for production access (live keys), and this
// device: whether it remembers the key, and "Forget this device".
import { ApiError, queryString } from "./api.js";
import { clearErrors, copy, download, field, fill, h, notice, showErrors, table } from "./dom.js";
import { label, when } from "./format.js";
import * as sessions from "./session.js";
import { generateEd25519 } from "./signing.js";
import { daysText } from "./view-signin.js";

export const title = "Developers";

/** The scopes a key may have, in the gateway's order, with what each allows. */
const SCOPES = [
  ["read", "Read", "Every list and detail; changes nothing."],
  ["payment_links", "Payment links", "Create, cancel and refund payment links."],
  ["subscriptions", "Subscriptions", "Plans, subscribers and subscription links."],
  ["webhooks", "Webhooks", "Webhook endpoints, deliveries and events."],
  ["account", "Account", "API keys, the receiving key and production access."],
];

/** A key's scopes in words: "All" for every one. */
function scopesText(scopes) {
  if (SCOPES.every(([scope]) => scopes.includes(scope))) {
    return "All";
  }
  return SCOPES.filter(([scope]) => scopes.includes(scope)).map(([, name]) => name).join(", ");
}

export async function render(ctx) {
  const keys = h("section", { id: "api-keys", "aria-labelledby": "keys-heading" });
  const publishable = h("section", { id: "publishable-keys", "aria-labelledby": "publishable-heading" });
  const receiving = h("section", { id: "receiving-key", "aria-labelledby": "receiving-heading" });
  const production = h("section", { id: "production-access", "aria-labelledby": "production-heading" });
  fill(ctx.main, h("h1", { tabindex: "-1" }, title),
    h("p", {}, `Keys and settings of ${ctx.account.mode} mode. The API reference is at `,
      h("a", { href: "/docs" }, "/docs"), "."),
    keys, createKeyForm(ctx, () => showKeys(ctx, keys, publishable, 1)), publishable, receiving, production,
    thisDevice(ctx));
  const page = Math.max(1, Number.parseInt(ctx.query.get("page") ?? "1", 10) || 1);
  await Promise.all([
    showKeys(ctx, keys, publishable, page),
    showReceivingKey(ctx, receiving),
    showProductionAccess(ctx, production),
  ]);
}

async function showKeys(ctx, section, publishableSection, page) {
  const answer = await ctx.api.get("/account/keys", { page, page_size: 20 });
  if (!ctx.alive()) {
    return;
  }
  const message = h("div", { id: "keys-message" });
  const revoke = async (key, button) => {
    if (!window.confirm(`Revoke ${key.api_key_prefix}…? Every integration signing with it stops working.`)) {
      return;
    }
    button.disabled = true;
    try {
      await ctx.api.del(`/account/keys/${key.id}`);
      await showKeys(ctx, section, publishableSection, page);
      fill(section.querySelector("#keys-message"), notice("success", `${key.api_key_prefix}… is revoked.`));
      ctx.announce(`${key.api_key_prefix} revoked`);
    } catch (error) {
      button.disabled = false;
      fill(message, notice("error", error.message));
    }
  };
  fill(section,
    h("h2", { id: "keys-heading" }, "API keys"),
    message,
    table(`API keys of ${ctx.account.mode} mode`,
      ["Key", "Scopes", "Algorithm", "Status", "Created", "Last used", ""],
      answer.keys.map((key) => [
        h("code", {}, `${key.api_key_prefix}…`),
        h("span", { class: "key-scopes" }, scopesText(key.scopes)),
        key.algorithm === "ed25519" ? "Ed25519" : "RSA-PSS",
        key.status === "revoked" ? `Revoked ${when(key.revoked_at)}` : label(key.status),
        when(key.created_at),
        when(key.last_used_at),
        key.current
          ? h("span", { class: "hint" }, "Signing this session")
          : key.status === "active"
            ? (() => {
              const button = h("button", { type: "button", class: "danger small",
                "aria-label": `Revoke ${key.api_key_prefix}`, dataset: { revoke: key.api_key_prefix } }, "Revoke");
              button.addEventListener("click", () => revoke(key, button));
              return button;
            })()
            : "",
      ]), { captionHidden: true }),
    answer.total_pages > 1
      ? h("nav", { class: "pager", "aria-label": "Pages of keys" },
        page > 1 ? h("a", { href: `/dashboard/developers${queryString({ page: page - 1 })}`, "data-nav": true,
          class: "button secondary" }, "Previous page") : null,
        h("span", {}, `Page ${page} of ${answer.total_pages}`),
        page < answer.total_pages ? h("a", { href: `/dashboard/developers${queryString({ page: page + 1 })}`,
          "data-nav": true, class: "button secondary" }, "Next page") : null)
      : null);
  fill(publishableSection,
    h("h2", { id: "publishable-heading" }, "Publishable keys"),
    h("p", {}, "Not secret: the merchant_key your customer-side code may carry."),
    answer.publishable_keys.length === 0
      ? h("p", {}, `No publishable key of ${ctx.account.mode} mode.`)
      : table("Publishable keys", ["Key", "Status", "Created", ""], answer.publishable_keys.map((key) => {
        const copied = h("span", { class: "hint", role: "status" });
        return [
          h("code", { class: "publishable-key" }, key.publishable_key),
          label(key.status),
          when(key.created_at),
          [h("button", { type: "button", class: "secondary small", "aria-label": "Copy publishable key",
            on: { click: async () => { copied.textContent = (await copy(key.publishable_key)) ? "Copied." : ""; } } },
          "Copy"), " ", copied],
        ];
      }), { captionHidden: true }));
}

function createKeyForm(ctx, refresh) {
  const mode = field("mode", "Mode", { value: ctx.account.mode, choices: [["test", "Test"], ["live", "Live"]],
    hint: "A live key needs approved production access (below)." });
  const summary = h("div", { class: "notice error", role: "alert", tabindex: "-1", hidden: true });
  const result = h("div", { id: "new-key" });
  const scopes = scopeChoices(ctx.account.scopes);
  const submit = h("button", { type: "submit" }, "Create API key");
  const form = h("form", { class: "stack", novalidate: true, id: "create-key" }, summary, mode.row, scopes.set,
    h("p", { class: "hint" }, "The key pair is made in this browser; only its public key is sent."), submit);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form, summary);
    result.replaceChildren();
    submit.disabled = true;
    try {
      const pair = await generateEd25519();
      const created = await ctx.api.post("/account/keys",
        { mode: mode.input.value, public_key: pair.publicKeyPem, scopes: scopes.chosen() });
      showNewKey(result, created, pair.privateKeyPem);
      ctx.announce(`API key ${created.api_key_prefix} created`);
      await refresh();
    } catch (error) {
      const placed = error.code === "production_access_required"
        ? new ApiError(error.status, error.code, error.message, [{ field: "mode", message: error.message }])
        : error.code === "missing_scope" || error.code === "invalid_scopes"
          ? new ApiError(error.status, error.code, error.message, [{ field: "scopes", message: error.message }])
          : error;
      (showErrors(form, summary, placed) ?? summary).focus();
    } finally {
      submit.disabled = false;
    }
  });
  return h("section", { "aria-labelledby": "create-key-heading" },
    h("h2", { id: "create-key-heading" }, "Create an API key"), form, result);
}

/**
 * The scope checkboxes of a new key, in a fieldset whose error slot is named "scopes": those of the key signing this
 * session are checked, the others cannot be given (a key never makes a stronger one). {set, chosen()}.
 */
function scopeChoices(own) {
  const errorId = "scopes-error";
  const boxes = [];
  const set = h("fieldset", { class: "choices", dataset: { field: "scopes" } },
    h("legend", {}, "Scopes"),
    h("p", { class: "hint" }, "What the new key may do. Give a CI or reporting key only what it needs; "
      + "scopes cannot be changed later."),
    h("p", { id: errorId, class: "field-error", dataset: { errorFor: "scopes" } }),
    SCOPES.map(([scope, name, meaning]) => {
      const id = `scope-${scope}`;
      const held = own.includes(scope);
      const box = h("input", { type: "checkbox", id, name: "scopes", value: scope, checked: held, disabled: !held,
        "aria-describedby": `${id}-hint ${errorId}` });
      boxes.push(box);
      return h("div", { class: "check" }, box, h("label", { for: id }, name),
        h("p", { id: `${id}-hint`, class: "hint" }, held ? meaning : `${meaning} This session's key lacks it.`));
    }));
  return { set, chosen: () => boxes.filter((box) => box.checked).map((box) => box.value) };
}

function showNewKey(container, created, privateKeyPem) {
  const filename = `cryptopay-${created.api_key_prefix}.pem`;
  const saved = h("span", { class: "hint", role: "status" });
  fill(container, notice("success",
    h("p", {}, `New ${created.mode} key with scopes: ${scopesText(created.scopes)}. `
      + "Save both now: neither is shown again."),
    h("dl", { class: "facts" },
      h("dt", {}, "API key"), h("dd", {}, h("code", { class: "secret", id: "created-api-key" }, created.api_key)),
      h("dt", {}, "Private key"), h("dd", {},
        h("button", { type: "button", id: "download-new-key", on: { click: () => {
          download(filename, privateKeyPem);
          saved.textContent = `Offered as ${filename}.`;
        } } }, "Download private key"), " ", saved))));
}

async function showReceivingKey(ctx, section) {
  let current = null;
  try {
    current = (await ctx.api.get("/payment_links/receiving_key")).data;
  } catch (error) {
    if (error.status !== 404) {
      throw error;
    }
  }
  if (!ctx.alive()) {
    return;
  }
  const xpub = field("extended_public_key", current ? "Replace with" : "Extended public key", {
    rows: 2, spellcheck: "false", autocomplete: "off",
    hint: "The xpub of your wallet's receiving chain (for Ethereum wallets m/44'/60'/0'/0). Each payment link is "
      + "paid to its own child address; the private key never leaves your wallet.",
  });
  const summary = h("div", { class: "notice error", role: "alert", tabindex: "-1", hidden: true });
  const submit = h("button", { type: "submit" }, current ? "Replace receiving key" : "Register receiving key");
  const form = h("form", { class: "stack", novalidate: true, id: "receiving-key-form" }, summary, xpub.row, submit);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form, summary);
    submit.disabled = true;
    try {
      await ctx.api.put("/payment_links/receiving_key", { extended_public_key: xpub.input.value.trim() });
      ctx.announce("Receiving key registered");
      await showReceivingKey(ctx, section);
    } catch (error) {
      submit.disabled = false;
      (showErrors(form, summary, error) ?? summary).focus();
    }
  });
  fill(section,
    h("h2", { id: "receiving-heading" }, "Receiving key"),
    current
      ? h("dl", { class: "facts", id: "receiving-key-facts" },
        h("dt", {}, "Key"), h("dd", {}, h("code", { class: "wrap" }, current.extended_public_key)),
        h("dt", {}, "Fingerprint"), h("dd", {}, current.fingerprint),
        h("dt", {}, "First address"), h("dd", {}, h("code", {}, current.first_address ?? "—")),
        h("dt", {}, "Addresses issued"), h("dd", {}, String(current.addresses_issued)))
      : h("p", {}, "None yet: links made now have no deposit address of their own."),
    form);
}

async function showProductionAccess(ctx, section) {
  const access = await ctx.api.get("/account/production_access");
  if (!ctx.alive()) {
    return;
  }
  const describe = {
    none: "Test mode only. Ask for production access to create live keys.",
    pending: "Your request is waiting for review.",
    approved: "Approved: you can create live keys above.",
    rejected: `Your last request was not approved${access.reason ? `: ${access.reason}` : "."} You may ask again.`,
  };
  const parts = [h("h2", { id: "production-heading" }, "Production access"),
    h("p", { id: "production-status", dataset: { status: access.status } }, describe[access.status] ?? access.status)];
  if (access.status === "none" || access.status === "rejected") {
    const company = field("company", "Company (optional)", { autocomplete: "organization", maxlength: "200" });
    const website = field("website", "Website (optional)", { type: "url", placeholder: "https://shop.example" });
    const useCase = field("use_case", "What will you sell?", { rows: 3, maxlength: "2000" });
    const summary = h("div", { class: "notice error", role: "alert", tabindex: "-1", hidden: true });
    const submit = h("button", { type: "submit" }, "Ask for production access");
    const form = h("form", { class: "stack", novalidate: true, id: "production-form" }, summary, company.row,
      website.row, useCase.row, submit);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearErrors(form, summary);
      submit.disabled = true;
      const body = { use_case: useCase.input.value };
      if (company.input.value.trim()) {
        body.company = company.input.value.trim();
      }
      if (website.input.value.trim()) {
        body.website = website.input.value.trim();
      }
      try {
        await ctx.api.post("/account/production_access", body);
        ctx.announce("Production access requested");
        await showProductionAccess(ctx, section);
      } catch (error) {
        submit.disabled = false;
        (showErrors(form, summary, error) ?? summary).focus();
      }
    });
    parts.push(form);
  } else if (access.created_at) {
    parts.push(h("p", { class: "hint" }, `Asked ${when(access.created_at)}`
      + (access.decided_at ? `, decided ${when(access.decided_at)}.` : ".")));
  }
  fill(section, ...parts);
}

/**
 * This device: whether this browser remembers the key signing this session (until when) or keeps it in this tab only,
 * and "Forget this device", which erases it from this browser at once and signs out, once confirmed. It does not
 * revoke the key on the server; the text says so and where to do that.
 */
function thisDevice(ctx) {
  const session = sessions.session();
  const remembered = Boolean(session?.remembered);
  const forget = h("button", { type: "button", class: "danger", id: "forget-device",
    "aria-describedby": "device-status forget-hint" }, "Forget this device");
  forget.addEventListener("click", async () => {
    if (!window.confirm("Forget this device? Your API key and private key are erased from this browser now and you "
      + "are signed out. The API key itself is not revoked.")) {
      forget.focus();
      return;
    }
    forget.disabled = true;
    await sessions.forget();
    await ctx.signOut("This device has forgotten your key and you are signed out. Your API key still works "
      + "wherever else it is used; to stop it, revoke it on the Developers page.");
  });
  return h("section", { id: "this-device", "aria-labelledby": "device-heading" },
    h("h2", { id: "device-heading" }, "This device"),
    h("p", { id: "device-status", dataset: { remembered: String(remembered) } }, remembered
      ? `This browser remembers your API key and private key until ${when(session.rememberedUntil)} `
        + `(${daysText(session.days)} from when you signed in), then erases them.`
      : "This browser does not remember your key: it is kept in this tab only and forgotten when the tab closes or "
        + "you sign out."),
    h("p", { id: "forget-hint", class: "hint" }, "Forgetting erases the key from this browser at once and signs "
      + "you out, here and in the dashboard's other tabs. It does not revoke the API key: the key and its private key "
      + "file keep working wherever else they are kept. If they may have been copied, revoke the key under API keys "
      + "above, from a session signed with another key."),
    h("p", {}, forget));
}
