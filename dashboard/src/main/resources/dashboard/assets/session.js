// The signed-in session: the API key and its private key as a non-extractable CryptoKey. Kept in this tab's memory,
// and, when the merchant chose "remember on this device", in this browser's IndexedDB (a CryptoKey is stored as it
// is: still not extractable, so neither this page nor anything else can read the key's bytes back). Signing out
// forgets both.

const DATABASE = "cryptopay-dashboard";
const STORE = "session";
const ENTRY = "current";

let current = null;

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

/** The session of this tab, or null. */
export function session() {
  return current;
}

/**
 * Starts a session {apiKey, signingKey: {key, algorithm}}; with remember, also keeps it on this device.
 * Anything remembered before is forgotten first, so at most one session is stored.
 */
export async function start(apiKey, signingKey, remember) {
  current = { apiKey, signingKey, remembered: remember };
  await withStore("readwrite", (store) => store.delete(ENTRY));
  if (remember) {
    await withStore("readwrite", (store) =>
      store.put({ apiKey, key: signingKey.key, algorithm: signingKey.algorithm, savedAt: Date.now() }, ENTRY));
  }
  return current;
}

/** The session remembered on this device, made current; null when there is none (or storage is unavailable). */
export async function resume() {
  try {
    const saved = await withStore("readonly", (store) => store.get(ENTRY));
    if (saved && saved.apiKey && saved.key) {
      current = { apiKey: saved.apiKey, signingKey: { key: saved.key, algorithm: saved.algorithm }, remembered: true };
    }
  } catch {
    current = null;
  }
  return current;
}

/** Signs out: forgets the session here and on this device. */
export async function end() {
  current = null;
  try {
    await withStore("readwrite", (store) => store.delete(ENTRY));
  } catch {
    // nothing stored, or storage unavailable: nothing to forget
  }
}
