// The dashboard's shell: which view a path shows, the session, the header (mode, merchant, navigation, sign-out),
// and what every view shares (the signed API client, navigation, announcements). Views live in their own modules and
// render into <main>; they build the page with dom.js only.
import { signedClient } from "./api.js";
import { h, fill, notice } from "./dom.js";
import { when } from "./format.js";
import * as sessions from "./session.js";
import * as signIn from "./view-signin.js";
import * as signUp from "./view-signup.js";
import * as overview from "./view-overview.js";
import * as links from "./view-links.js";
import * as linkForm from "./view-link-new.js";
import * as linkDetail from "./view-link.js";
import * as developers from "./view-developers.js";
import * as security from "./view-security.js";
import * as emails from "./view-emails.js";
import * as webhookEndpoints from "./view-webhooks.js";
import * as webhookEndpoint from "./view-webhook.js";
import * as webhookDelivery from "./view-webhook-delivery.js";
import * as plans from "./view-subscriptions.js";
import * as planForm from "./view-plan-new.js";
import * as planDetail from "./view-plan.js";
import * as subscriptionLinks from "./view-subscription-links.js";
import * as subscriptionLink from "./view-subscription-link.js";

const ROOT = "/dashboard";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const main = document.getElementById("main");
const announcer = document.getElementById("announcer");
const signupEnabled = document.querySelector('meta[name="cryptopay-signup"]')?.content === "enabled";

/** The API key's account (GET /account), read once per session. */
let account = null;
let leaving = [];
let renders = 0;
let afterSignIn = null;

/** Which view a path shows: [view, section of the navigation, params]. */
function route(path) {
  const rest = path.replace(/\/+$/, "").slice(ROOT.length) || "/";
  if (rest === "/") {
    return [overview, "overview", {}];
  }
  if (rest === "/signin") {
    return [signIn, null, {}];
  }
  if (rest === "/signup") {
    return [signupEnabled ? signUp : notFound, null, {}];
  }
  if (rest === "/links") {
    return [links, "links", {}];
  }
  if (rest === "/links/new") {
    return [linkForm, "links", {}];
  }
  const link = /^\/links\/([^/]+)$/.exec(rest);
  if (link && UUID.test(link[1])) {
    return [linkDetail, "links", { id: link[1].toLowerCase() }];
  }
  if (rest === "/developers") {
    return [developers, "developers", {}];
  }
  if (rest === "/security") {
    return [security, "security", {}];
  }
  if (rest === "/emails") {
    return [emails, "emails", {}];
  }
  const webhooks = webhookRoute(rest);
  if (webhooks) {
    return webhooks;
  }
  const subscriptions = subscriptionRoute(rest);
  if (subscriptions) {
    return subscriptions;
  }
  return [notFound, null, {}];
}

/** The subscriptions section: plans, a new plan, a plan, the subscription links and a link; null for other paths. */
function subscriptionRoute(rest) {
  if (rest === "/subscriptions") {
    return [plans, "subscriptions", {}];
  }
  if (rest === "/subscriptions/plans/new") {
    return [planForm, "subscriptions", {}];
  }
  if (rest === "/subscriptions/links") {
    return [subscriptionLinks, "subscriptions", {}];
  }
  const one = /^\/subscriptions\/(plans|links)\/([^/]+)$/.exec(rest);
  if (one && UUID.test(one[2])) {
    return [one[1] === "plans" ? planDetail : subscriptionLink, "subscriptions", { id: one[2].toLowerCase() }];
  }
  return null;
}

/** The webhooks section: the endpoints, an endpoint with its deliveries, a delivery; null for other paths. */
function webhookRoute(rest) {
  if (rest === "/webhooks") {
    return [webhookEndpoints, "webhooks", {}];
  }
  const endpoint = /^\/webhooks\/([^/]+)(?:\/deliveries\/([^/]+))?$/.exec(rest);
  if (!endpoint || !UUID.test(endpoint[1]) || (endpoint[2] !== undefined && !UUID.test(endpoint[2]))) {
    return null;
  }
  const id = endpoint[1].toLowerCase();
  return endpoint[2] === undefined ? [webhookEndpoint, "webhooks", { id }]
    : [webhookDelivery, "webhooks", { id, deliveryId: endpoint[2].toLowerCase() }];
}

const notFound = {
  title: "Page not found",
  open: true,
  render(ctx) {
    fill(ctx.main,
      h("h1", { tabindex: "-1" }, "Page not found"),
      h("p", {}, "There is nothing at this address."),
      h("p", {}, h("a", { href: ROOT, "data-nav": true }, "Go to the overview")));
  },
};

/** Shows a path's view (pushing it onto the history unless replace or popping). */
export function navigate(path, { replace = false } = {}) {
  if (replace) {
    history.replaceState(null, "", path);
  } else {
    history.pushState(null, "", path);
  }
  return render(true);
}

async function render(moveFocus) {
  leaving.forEach((leave) => leave());
  leaving = [];
  const token = ++renders;
  if (sessions.expired()) {
    // The tab stayed open past the remembered period: the key goes now, not at the next load.
    const { days, rememberedUntil } = sessions.session();
    return signOut(expiredMessage({ days, until: rememberedUntil }));
  }
  const [view, section, params] = route(location.pathname);
  const session = sessions.session();
  if (!view.open && !session) {
    afterSignIn = location.pathname + location.search;
    history.replaceState(null, "", `${ROOT}/signin`);
    return render(moveFocus);
  }
  if (session && account && (view === signIn || view === signUp)) {
    history.replaceState(null, "", ROOT);
    return render(moveFocus);
  }
  showHeader(session, section);
  const ctx = {
    main,
    params,
    query: new URLSearchParams(location.search),
    api: session ? signedClient(session) : null,
    account,
    signupEnabled,
    navigate,
    announce,
    alive: () => token === renders,
    onLeave: (leave) => leaving.push(leave),
    signedIn: (newAccount) => signedIn(newAccount),
    signOut: (message) => signOut(message),
    failed: (error) => failed(ctx, error),
  };
  document.title = `${view.title} · cryptopay dashboard`;
  fill(main, h("h1", { tabindex: "-1" }, view.title), h("p", { class: "loading" }, "Loading…"));
  try {
    await view.render(ctx);
  } catch (error) {
    if (ctx.alive()) {
      failed(ctx, error);
    }
  }
  if (ctx.alive() && moveFocus) {
    main.querySelector("h1")?.focus();
    announce(view.title);
  }
}

/** An error no view handled: a lost session signs out, anything else is shown on the page. */
function failed(ctx, error) {
  if (error?.status === 401 && ["invalid_api_key", "api_key_revoked", "invalid_signature"].includes(error.code)) {
    signOut(`Signed out: ${error.message}.`);
    return;
  }
  const heading = ctx.main.querySelector("h1") ?? h("h1", { tabindex: "-1" }, "Something went wrong");
  fill(ctx.main, heading, notice("error",
    h("p", {}, error?.message ?? String(error)),
    error?.requestId ? h("p", { class: "hint" }, `Request id: ${error.requestId}`) : null));
}

function showHeader(session, section) {
  const signed = Boolean(session && account);
  document.getElementById("nav").hidden = !signed;
  document.getElementById("account").hidden = !signed;
  const mode = document.getElementById("mode");
  mode.hidden = !signed;
  if (signed) {
    mode.textContent = account.mode === "live" ? "Live mode" : "Test mode";
    mode.className = `mode mode-${account.mode}`;
    document.getElementById("merchant-name").textContent = account.name;
  }
  document.querySelectorAll("#nav a").forEach((link) => {
    if (link.dataset.section === section) {
      link.setAttribute("aria-current", "page");
    } else {
      link.removeAttribute("aria-current");
    }
  });
}

/** Says something to screen readers. */
export function announce(text) {
  announcer.textContent = "";
  setTimeout(() => { announcer.textContent = text; }, 50);
}

async function signedIn(newAccount) {
  account = newAccount;
  const next = afterSignIn && !afterSignIn.startsWith(`${ROOT}/sign`) ? afterSignIn : ROOT;
  afterSignIn = null;
  await navigate(next, { replace: true });
}

async function signOut(message) {
  await sessions.end();
  account = null;
  afterSignIn = null;
  history.replaceState(null, "", `${ROOT}/signin`);
  await render(true);
  if (message) {
    main.querySelector("h1")?.after(notice("info", message));
  }
}

// Links inside the dashboard change the view without reloading the page (and without losing a memory-only session).
document.addEventListener("click", (event) => {
  const link = event.target.closest?.("a[data-nav]");
  if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey
      || event.altKey) {
    return;
  }
  event.preventDefault();
  navigate(link.getAttribute("href"));
});
window.addEventListener("popstate", () => render(true));
document.getElementById("sign-out").addEventListener("click", () => signOut("You are signed out."));
// "Forget this device" in another tab: this one keeps nothing either.
sessions.onForgotten(() => {
  if (sessions.session()) {
    signOut("This device has forgotten your key (from another tab) and you are signed out.");
  }
});

/** What the sign-in page says when a remembered session has expired ({days, until} as resume() answers them). */
function expiredMessage({ days, until }) {
  return until
    ? "Your remembered session has expired: this device kept your key for "
      + `${signIn.daysText(days)}, until ${when(until)}, and has now forgotten it. Please sign in again with your API `
      + "key and key file."
    : "Your remembered session has expired and this device has forgotten your key. Please sign in again with your "
      + "API key and key file.";
}

async function start() {
  const { session, expired, days, until } = await sessions.resume();
  if (expired) {
    await render(false);
    main.querySelector("h1")?.after(notice("info", expiredMessage({ days, until })));
    return;
  }
  if (session) {
    try {
      account = await signedClient(session).get("/account");
    } catch (error) {
      await sessions.end();
      account = null;
      await render(false);
      main.querySelector("h1")?.after(notice("info",
        error.status === 401 ? `The key remembered on this device no longer works (${error.message}).`
          : error.message));
      return;
    }
  }
  await render(false);
}

start();
