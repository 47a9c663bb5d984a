// The public API, called like every other client: /api/v1 on this origin, every merchant request signed here with
// the session's key (signing.js). Answers parsed JSON; every error answer is thrown as an ApiError carrying the
// problem's code, message, rejected fields and request id.
import { canonicalMessage, sign, timestamp } from "./signing.js";

const BASE = "/api/v1";
const encoder = new TextEncoder();

/** Amounts are read from the JSON text itself, as strings, so 0.1 stays 0.1 and 18 decimals survive. */
const DECIMAL_MEMBERS = new Set([
  "amount", "crypto_amount", "fiat_amount", "total_amount_received", "total_amount_received_crypto",
]);

function parseJson(text) {
  return JSON.parse(text, (key, value, context) =>
    typeof value === "number" && DECIMAL_MEMBERS.has(key) ? (context?.source ?? String(value)) : value);
}

/** An error answer of the API (or of the network: status 0). */
export class ApiError extends Error {
  constructor(status, code, message, errors = [], requestId = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.errors = errors;
    this.requestId = requestId;
  }

  /** The message of the rejected field named so, or null. */
  fieldMessage(field) {
    return this.errors.find((error) => error.field === field)?.message ?? null;
  }
}

async function answer(response) {
  const text = await response.text();
  if (response.ok) {
    return text ? parseJson(text) : null;
  }
  let problem = {};
  try {
    problem = JSON.parse(text);
  } catch {
    // not a problem body (a proxy's page): described by the status alone
  }
  throw new ApiError(
    response.status,
    problem.code ?? `http_${response.status}`,
    problem.message ?? `The server answered ${response.status}.`,
    Array.isArray(problem.errors) ? problem.errors : [],
    problem.request_id ?? response.headers.get("X-Request-Id"),
  );
}

async function send(url, init) {
  let response;
  try {
    response = await fetch(url, { ...init, credentials: "omit", cache: "no-store" });
  } catch {
    throw new ApiError(0, "network_error", "The gateway could not be reached. Check your connection and retry.");
  }
  return answer(response);
}

/** "?a=1&b=2" of the members that have a value, or "". */
export function queryString(params = {}) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") {
      query.append(name, String(value));
    }
  }
  const text = query.toString();
  return text ? `?${text}` : "";
}

/**
 * A client signing with session {apiKey, signingKey}. Paths are relative to /api/v1 ("/payment_links"); the signed
 * path is the same text with its query string, and the signed body the exact bytes sent.
 */
export function signedClient(session) {
  async function request(method, path, { query, body, headers = {} } = {}) {
    const signedPath = path + queryString(query);
    const bytes = body === undefined ? new Uint8Array() : encoder.encode(JSON.stringify(body));
    const ts = timestamp();
    const signature = await sign(session.signingKey, canonicalMessage(method, signedPath, ts, bytes));
    const all = {
      ...headers,
      "X-API-Key": session.apiKey,
      "X-API-Timestamp": ts,
      "X-API-Signature": signature,
      Accept: "application/json",
    };
    if (body !== undefined) {
      all["Content-Type"] = "application/json";
    }
    return send(BASE + signedPath, { method, headers: all, body: body === undefined ? undefined : bytes });
  }
  return {
    get: (path, query) => request("GET", path, { query }),
    post: (path, body, headers) => request("POST", path, { body, headers }),
    put: (path, body) => request("PUT", path, { body }),
    del: (path) => request("DELETE", path),
  };
}

/** An unsigned call of a public route (sign-up). */
export function publicPost(path, body) {
  return send(BASE + path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
}
