// Verifies a webhook delivery from the payments platform on the receiving side. Node.js 18+, `node:crypto` only.
//
// As a library:
//   import { WebhookVerifier } from './verify-webhook.mjs';
//   const verifier = new WebhookVerifier(process.env.WEBHOOK_SECRET);
//   const result = verifier.verify(req.headers, rawBody); // rawBody: the exact bytes (Buffer), before JSON.parse
//   if (!result.ok) { res.statusCode = 400; return res.end(result.reason); }
//   try { process(rawBody); res.statusCode = 200; }
//   catch { verifier.forget(result.eventId); res.statusCode = 500; } // so the platform's retry is accepted
//
// As a CLI (exit 0 = accepted, 1 = refused, 2 = usage error):
//   WEBHOOK_SECRET=whsec_... node verify-webhook.mjs delivery.json [--seen seen.json] [--tolerance 300] [--now 1700000000]
// where delivery.json is {"headers": {"X-Service-Event-Id": "...", ...}, "body": "<exact body text>"}
// (or "body_base64" for the exact bytes) and seen.json keeps the accepted event ids between runs.

import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

export const EVENT_ID = 'x-service-event-id';
export const TIMESTAMP = 'x-service-timestamp';
export const TIMESTAMPED_SIGNATURE = 'x-service-timestamped-signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;

export class WebhookVerifier {
  /**
   * @param {string} secret the endpoint secret (whsec_...)
   * @param {{toleranceSeconds?: number, now?: () => number, accepted?: Map<string, number>}} options
   *   `now` answers epoch seconds; `accepted` maps accepted event ids to the epoch second they can be forgotten.
   */
  constructor(secret, options = {}) {
    if (!secret) throw new Error('the endpoint secret is required');
    this.key = Buffer.from(secret, 'utf8');
    this.toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
    this.accepted = options.accepted ?? new Map();
  }

  /** @returns {{ok: true, eventId: string} | {ok: false, reason: string}} */
  verify(headers, body) {
    const named = {};
    for (const [name, value] of Object.entries(headers)) {
      named[name.toLowerCase()] = Array.isArray(value) ? value[0] : value;
    }
    const eventId = named[EVENT_ID]?.trim();
    const timestampText = named[TIMESTAMP]?.trim();
    const signature = named[TIMESTAMPED_SIGNATURE]?.trim();
    if (!eventId) return refuse(`missing ${EVENT_ID}`);
    if (!timestampText) return refuse(`missing ${TIMESTAMP}`);
    if (!signature) return refuse(`missing ${TIMESTAMPED_SIGNATURE}`);

    if (!/^[0-9]{1,12}$/.test(timestampText)) return refuse(`malformed ${TIMESTAMP}`);
    const timestamp = Number(timestampText);
    const now = this.now();
    if (Math.abs(now - timestamp) > this.toleranceSeconds) {
      return refuse(`timestamp outside the tolerance of ${this.toleranceSeconds} s`);
    }

    if (!/^[0-9a-fA-F]{64}$/.test(signature)) return refuse(`malformed ${TIMESTAMPED_SIGNATURE}`);
    const expected = createHmac('sha256', this.key)
      .update(Buffer.from(`${timestampText}.`, 'utf8'))
      .update(Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'))
      .digest();
    const presented = Buffer.from(signature, 'hex');
    // Both are 32 bytes here (checked above), as timingSafeEqual requires.
    if (!timingSafeEqual(expected, presented)) return refuse('signature does not match');

    for (const [id, expiry] of this.accepted) {
      if (expiry < now) this.accepted.delete(id);
    }
    if (this.accepted.has(eventId)) return refuse(`event ${eventId} was already accepted (replay)`);
    this.accepted.set(eventId, timestamp + this.toleranceSeconds);
    return { ok: true, eventId };
  }

  /** Forgets an accepted event id, for when processing it failed and the platform will retry. */
  forget(eventId) {
    this.accepted.delete(eventId);
  }
}

function refuse(reason) {
  return { ok: false, reason };
}

function cli(argv) {
  const options = { seen: null, tolerance: DEFAULT_TOLERANCE_SECONDS, now: null };
  const files = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--seen') options.seen = argv[++i];
    else if (arg === '--tolerance') options.tolerance = Number(argv[++i]);
    else if (arg === '--now') options.now = Number(argv[++i]);
    else files.push(arg);
  }
  const secret = process.env.WEBHOOK_SECRET;
  if (files.length !== 1 || !secret || !Number.isFinite(options.tolerance)) {
    console.error('usage: WEBHOOK_SECRET=whsec_... node verify-webhook.mjs delivery.json '
      + '[--seen seen.json] [--tolerance seconds] [--now epochSeconds]');
    return 2;
  }
  const delivery = JSON.parse(readFileSync(files[0], 'utf8'));
  const body = delivery.body_base64 !== undefined
    ? Buffer.from(delivery.body_base64, 'base64')
    : Buffer.from(delivery.body ?? '', 'utf8');
  const accepted = new Map(
    options.seen && existsSync(options.seen) ? Object.entries(JSON.parse(readFileSync(options.seen, 'utf8'))) : []);
  const verifier = new WebhookVerifier(secret, {
    toleranceSeconds: options.tolerance,
    now: options.now !== null ? () => options.now : undefined,
    accepted,
  });
  const result = verifier.verify(delivery.headers ?? {}, body);
  if (options.seen) writeFileSync(options.seen, JSON.stringify(Object.fromEntries(accepted)));
  if (!result.ok) {
    console.error(`refused: ${result.reason}`);
    return 1;
  }
  console.log(`accepted event ${result.eventId}`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = cli(process.argv.slice(2));
}
