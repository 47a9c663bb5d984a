// The signed-in session: the API key and its private key as a non-extractable CryptoKey. Kept in this tab's memory,
// and, when the merchant chose "remember on this device", in this browser's IndexedDB (a CryptoKey is stored as it
// is: still not extractable, so neither this page nor anything else can read the key's bytes back). A remembered
// session records when it was remembered and for how many days (1, 7, 30 — the default — or 90, chosen when signing
// in); past that it is erased, never used. Signing out forgets both; so does "Forget this device", in every open tab.

const DATABASE = "cryptopay-dashboard";
const STORE = "session";
const ENTRY = "current";
const DAY = 24 * 60 * 60 * 1000;

/** The periods a merchant may choose to be remembered for, in days. */
export const REMEMBER_DAYS = [1, 7, 30, 90];
/** The period when none was chosen (and for entries that name none). */
export const DEFAULT_REMEMBER_DAYS = 30;
/** Never longer, whatever an entry says. */
export const MAX_REMEMBER_DAYS = 90;
/** A remembered time this far ahead of the clock means the clock was set back: the entry is not trusted. */
const CLOCK_SLACK = 5 * 60 * 1000;

let current = null;

/** Tells the dashboard's other tabs in this browser that this device forgot the key ("Forget this device"). */
const tabs = typeof BroadcastChannel === "function" ? new BroadcastChannel(DATABASE) : null;

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function withStore(mode, action) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const request = action(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  } finally {
    db.close();
  }
}

/**
 * The days a choice (a number, or the select's "7") stands for: one of REMEMBER_DAYS; more than the cap is the cap;
 * anything else (true, 12, "") is the default.
 */
export function rememberDays(choice) {
  const days = typeof choice === "number" || typeof choice === "string" ? Number(choice) : Number.NaN;
  if (REMEMBER_DAYS.includes(days)) {
    return days;
  }
  return Number.isFinite(days) && days > MAX_REMEMBER_DAYS ? MAX_REMEMBER_DAYS : DEFAULT_REMEMBER_DAYS;
}

/**
 * Until when (milliseconds since the epoch) a stored entry {savedAt, days} may be used: savedAt plus its days (the
 * default when it names none, never more than MAX_REMEMBER_DAYS); 0 when it records no time.
 */
export function rememberedUntil(saved) {
  if (!saved || !Number.isFinite(saved.savedAt)) {
    return 0;
  }
  return saved.savedAt + storedDays(saved) * DAY;
}

/** The days a stored entry is remembered for: its own, at most MAX_REMEMBER_DAYS; the default when it names none. */
function storedDays(saved) {
  return Number.isFinite(saved.days) && saved.days > 0 ? Math.min(saved.days, MAX_REMEMBER_DAYS)
    : DEFAULT_REMEMBER_DAYS;
}

/** Whether a stored entry may no longer be used at now: its period is over, or it was "remembered" in the future. */
export function isExpired(saved, now = Date.now()) {
  return now >= rememberedUntil(saved) || saved.savedAt > now + CLOCK_SLACK;
}

async function erase() {
  try {
    await withStore("readwrite", (store) => store.delete(ENTRY));
  } catch {
    // nothing stored, or storage unavailable: nothing to forget
  }
}

/** The session of this tab, or null. */
export function session() {
  return current;
}

/**
 * Starts a session {apiKey, signingKey: {key, algorithm}}; with remember (a number of days, or true for the default),
 * also keeps it on this device for that long. Anything remembered before is forgotten first, so at most one session
 * is stored.
 */
export async function start(apiKey, signingKey, remember) {
  const days = remember ? rememberDays(remember) : 0;
  const savedAt = Date.now();
  current = { apiKey, signingKey, remembered: Boolean(remember) };
  await withStore("readwrite", (store) => store.delete(ENTRY));
  if (remember) {
    await withStore("readwrite", (store) =>
      store.put({ apiKey, key: signingKey.key, algorithm: signingKey.algorithm, savedAt, days }, ENTRY));
    Object.assign(current, { days, rememberedUntil: rememberedUntil({ savedAt, days }) });
  }
  return current;
}

/**
 * The session remembered on this device, made current: {session, expired, days, until}. A remembered session whose
 * period is over is erased from this device and answered as {session: null, expired: true} with its days and until
 * (a time, for saying when it ended); session is null too when nothing is remembered or storage is unavailable.
 */
export async function resume(now = Date.now()) {
  let saved;
  try {
    saved = await withStore("readonly", (store) => store.get(ENTRY));
  } catch {
    current = null;
    return { session: null, expired: false };
  }
  if (!saved) {
    return { session: null, expired: false };
  }
  if (!saved.apiKey || !saved.key || isExpired(saved, now)) {
    await erase();
    current = null;
    return { session: null, expired: Boolean(saved.apiKey && saved.key), days: storedDays(saved),
      until: rememberedUntil(saved) };
  }
  current = { apiKey: saved.apiKey, signingKey: { key: saved.key, algorithm: saved.algorithm }, remembered: true,
    days: storedDays(saved), rememberedUntil: rememberedUntil(saved) };
  return { session: current, expired: false };
}

/** Whether this tab's session is a remembered one whose period is over (the tab stayed open past it). */
export function expired(now = Date.now()) {
  return Boolean(current?.remembered && now >= current.rememberedUntil);
}

/** Signs out: forgets the session here and on this device. */
export async function end() {
  current = null;
  await erase();
}

/** "Forget this device": signs out here and erases what this device remembers; the other open tabs are told. */
export async function forget() {
  await end();
  tabs?.postMessage("forgotten");
}

/** Calls listener when another tab of this browser forgot this device. */
export function onForgotten(listener) {
  tabs?.addEventListener("message", (event) => {
    if (event.data === "forgotten") {
      listener();
    }
  });
}
