// Request signing in the browser, exactly as merchants sign (gateway/README.md, "Signing requests"): the signature,
// with the API key's private key, over the UTF-8 bytes of METHOD + PATH + TIMESTAMP followed by the body's bytes, no
// separators. Ed25519 signs the message as it is; legacy RSA keys sign it with RSA-PSS (SHA-256, MGF1-SHA-256, 32-byte
// salt). The private key is imported as a non-extractable CryptoKey: this page can sign with it but never read it
// back, and it is never sent anywhere.

const encoder = new TextEncoder();

/** The bytes a request's signature covers: UTF-8 of method + path + timestamp, then the body's bytes. */
export function canonicalMessage(method, path, timestamp, body = new Uint8Array()) {
  const head = encoder.encode(method + path + timestamp);
  const message = new Uint8Array(head.length + body.length);
  message.set(head, 0);
  message.set(body, head.length);
  return message;
}

/** Standard padded Base64 of bytes. */
export function base64(bytes) {
  let binary = "";
  const view = new Uint8Array(bytes);
  for (let i = 0; i < view.length; i += 0x8000) {
    binary += String.fromCharCode(...view.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

function fromBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) {
    bytes[i] = binary.charCodeAt(i);
  }
  return bytes;
}

/** A problem with the key the merchant gave; the message says what to do. */
export class KeyError extends Error {}

/** PEM armour around DER, 64 characters a line, as OpenSSL writes it. */
export function pem(label, der) {
  const lines = base64(der).match(/.{1,64}/g).join("\n");
  return `-----BEGIN ${label}-----\n${lines}\n-----END ${label}-----\n`;
}

/** The PKCS#8 DER in a key file's text: PEM ("PRIVATE KEY") or the one-line "Ed25519:<Base64 of PKCS#8 DER>". */
function pkcs8Of(text) {
  const trimmed = text.trim();
  if (trimmed.startsWith("Ed25519:")) {
    try {
      return { der: fromBase64(trimmed.slice("Ed25519:".length).replace(/\s+/g, "")), only: "ed25519" };
    } catch {
      throw new KeyError("The Ed25519: key is not valid Base64.");
    }
  }
  const armour = trimmed.match(/-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/);
  if (!armour) {
    throw new KeyError("This is not a private key file: expected a PEM file (-----BEGIN PRIVATE KEY-----) "
      + "or the one-line Ed25519: form.");
  }
  if (armour[1] === "RSA PRIVATE KEY") {
    throw new KeyError("This RSA key is in the PKCS#1 format; convert it with "
      + "'openssl pkcs8 -topk8 -nocrypt -in key.pem -out key-pkcs8.pem' and choose that file.");
  }
  if (armour[1] === "ENCRYPTED PRIVATE KEY") {
    throw new KeyError("Encrypted private keys are not supported; decrypt it with "
      + "'openssl pkcs8 -in key.pem -out plain.pem' first.");
  }
  if (armour[1] !== "PRIVATE KEY") {
    throw new KeyError(`Expected a private key (-----BEGIN PRIVATE KEY-----), found ${armour[1]}.`);
  }
  try {
    return { der: fromBase64(armour[2].replace(/\s+/g, "")), only: null };
  } catch {
    throw new KeyError("The private key's PEM body is not valid Base64.");
  }
}

/**
 * Imports a private key (PKCS#8 PEM, Ed25519 or RSA, or the one-line Ed25519: form) for signing only.
 * Answers {key, algorithm} with algorithm "ed25519" or "rsa-pss-sha256"; the CryptoKey is not extractable.
 */
export async function importPrivateKey(text) {
  const { der, only } = pkcs8Of(text);
  try {
    const key = await crypto.subtle.importKey("pkcs8", der, { name: "Ed25519" }, false, ["sign"]);
    return { key, algorithm: "ed25519" };
  } catch (notEd25519) {
    if (only === "ed25519") {
      throw new KeyError("The Ed25519: key is not a valid Ed25519 private key.");
    }
  }
  try {
    const key = await crypto.subtle.importKey("pkcs8", der, { name: "RSA-PSS", hash: "SHA-256" }, false, ["sign"]);
    return { key, algorithm: "rsa-pss-sha256" };
  } catch {
    throw new KeyError("The file holds no Ed25519 or RSA private key this browser can use.");
  }
}

/** Base64 of the signature over the message, with the algorithm the key was imported for. */
export async function sign(signingKey, message) {
  const params = signingKey.algorithm === "ed25519" ? { name: "Ed25519" } : { name: "RSA-PSS", saltLength: 32 };
  return base64(await crypto.subtle.sign(params, signingKey.key, message));
}

/**
 * A new Ed25519 pair made in this browser: the private key as a PKCS#8 PEM (to offer once as a file, then drop), the
 * public key as an SPKI PEM (the only part sent to the gateway), and the private key re-imported for signing, not
 * extractable.
 */
export async function generateEd25519() {
  const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"]);
  const pkcs8 = await crypto.subtle.exportKey("pkcs8", pair.privateKey);
  const spki = await crypto.subtle.exportKey("spki", pair.publicKey);
  const privateKeyPem = pem("PRIVATE KEY", pkcs8);
  const signingKey = await importPrivateKey(privateKeyPem);
  return { privateKeyPem, publicKeyPem: pem("PUBLIC KEY", spki), signingKey };
}

let lastTimestamp = 0;

/**
 * X-API-Timestamp: now, ISO 8601 UTC with milliseconds, never the same twice from this page (two identical writes
 * signed in one millisecond would otherwise be refused as a replay).
 */
export function timestamp() {
  const now = Math.max(Date.now(), lastTimestamp + 1);
  lastTimestamp = now;
  return new Date(now).toISOString();
}
