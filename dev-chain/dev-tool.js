'use strict';
// What the local stack's command-line tools on the dev chain share (dev-subscribe.js and dev-refund.js, run by the root
// scripts ./dev-subscribe and ./dev-refund): their exit statuses, the stack's settings file, one HTTP exchange and the
// API's words for a refusal, the dev chain's connection, a refused transaction's reason, and the runner that turns a
// thrown Exit into its message on stderr and its status.
//
// Exit statuses: 0 when the tool did its work; 1 when the API or the chain refused it (refused); 2 for a usage or
// set-up problem (setUp). What a tool does goes to stderr, each line headed by its name ("[dev-refund] …"); stdout is
// the tool's own result.

const fs = require('fs');
const path = require('path');
const { ethers } = require('ethers');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

class Exit extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}
const setUp = (message) => new Exit(2, message);
const refused = (message) => new Exit(1, message);

/**
 * A tool's voice and runner: say(line) writes "[<name>] line" to stderr; run(main) exits 0 when main's promise ends
 * well, with an Exit's status and message when it throws one, and 1 with the stack of anything else.
 */
function tool(name) {
  const say = (line) => console.error(`[${name}] ${line}`);
  const run = (main) => main().then(
    () => process.exit(0),
    (error) => {
      if (error instanceof Exit) {
        say(error.message);
        process.exit(error.status);
      }
      say(`failed: ${error.stack || error}`);
      process.exit(1);
    },
  );
  return { say, run };
}

/**
 * The stack's settings: STACK_ENV (default .local/stack.env, written by ./run-local) as NAME=value lines, as the
 * launcher writes them (EnvFile): no quotes, # comments. Each of `required` must be set, and each of `chain` (what the
 * stack writes only when it runs a dev chain). The values, and the file's path as `file`.
 */
function readStackEnv(required, chain) {
  const file = process.env.STACK_ENV || path.join(__dirname, '..', '.local', 'stack.env');
  if (!fs.existsSync(file)) {
    throw setUp(`${file} does not exist. Start the stack with ./run-local first; it writes that file.`);
  }
  const values = {};
  for (const line of fs.readFileSync(file, 'utf8').split(/\r?\n/)) {
    const eq = line.indexOf('=');
    if (eq > 0 && !line.trim().startsWith('#')) values[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  for (const name of required) {
    if (!values[name]) throw setUp(`${file} has no ${name}. Start the stack with ./run-local; it writes that file.`);
  }
  if (chain.some((name) => !values[name])) {
    throw setUp(`${file} names no dev chain: the stack runs without it (it needs Node.js 20 and npm; see the line `
      + './run-local printed about it).');
  }
  return { ...values, file };
}

/**
 * One HTTP exchange with the stack or the dev chain: its status, JSON answer (or null), text and Retry-After. A body is
 * sent as JSON. No answer at all is a set-up problem.
 */
async function call(method, url, { headers = {}, body } = {}) {
  let response;
  try {
    response = await fetch(url, {
      method,
      headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (e) {
    throw setUp(`${method} ${url} got no answer (${(e.cause && e.cause.code) || e.message}). Is the stack running `
      + '(./run-local)?');
  }
  const text = await response.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch (e) {
    // not JSON: problem() quotes the text
  }
  return { status: response.status, json, text, retryAfter: response.headers.get('retry-after') };
}

/** The API's own words for a refusal: "message (code)", as every service answers errors; when to ask again on a 429. */
function problem(answer) {
  const json = answer.json || {};
  const text = json.message
    ? `${json.message} (HTTP ${answer.status} ${json.code})`
    : `HTTP ${answer.status} ${answer.text}`;
  return answer.status === 429 && answer.retryAfter ? `${text}; try again in ${answer.retryAfter} s` : text;
}

/**
 * The dev chain at rpcUrl: its chain id (network), asked once, since ethers would retry a chain that does not answer
 * for ever, and a provider fixed to that network.
 */
async function devChain(rpcUrl) {
  const answer = await call('POST', rpcUrl, { body: { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] } });
  if (!answer.json || !answer.json.result) throw setUp(`the dev chain at ${rpcUrl} answered ${answer.text}`);
  const network = BigInt(answer.json.result);
  const provider = new ethers.JsonRpcProvider(rpcUrl, ethers.Network.from(network),
    { staticNetwork: true, cacheTimeout: -1 });
  return { network, provider };
}

/**
 * Why the chain refused a transaction: with `contract` (an ethers.Interface), the revert data decoded as one of its
 * errors when it is one; else the revert reason ethers decoded, or ethers' own words.
 */
function reason(error, contract = null) {
  const data = error.data || (error.info && error.info.error && error.info.error.data);
  if (contract && typeof data === 'string' && data.length >= 10) {
    try {
      const parsed = contract.parseError(data);
      if (parsed) return `${parsed.name}(${parsed.args.join(', ')})`;
    } catch (e) {
      // not one of the contract's errors: ethers' words below
    }
  }
  return error.reason || error.shortMessage || error.message;
}

module.exports = { UUID, setUp, refused, tool, readStackEnv, call, problem, devChain, reason };
