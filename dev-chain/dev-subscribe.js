'use strict';
// ./dev-subscribe "<subscription_link_url>": subscribes the local stack's customer account (anvil's dev account 1, a
// public test key) to an invitation on the dev chain, as a wallet does on the subscribe page: asks the enrolment kit
// (GET /public/subscriber/prepare through the gateway), sends exactly the transactions it lists (the token's approve,
// then the subscription contract's subscribe), reports the subscribe transaction (POST /public/subscriptions/link/)
// and waits until the invitation's page says the subscription is active (chain-watcher has confirmed it).
//
// Usage (the root script ./dev-subscribe runs this with the settings file of the stack):
//   node dev-chain/dev-subscribe.js [--periods <n>] [--wait <seconds>] "<subscription_link_url>"
//
//   --periods  how many periods the approval covers (default 12, as on the page; the API allows 1 to 120)
//   --wait     how long to wait for the confirmation (default 60 s)
//
// Settings: STACK_ENV (default .local/stack.env, written by ./run-local): BASE_URL, DEV_CHAIN_RPC_URL and
// CUSTOMER_PRIVATE_KEY. What it does goes to stderr; stdout gets one JSON line with subscription_link_id,
// subscribe_hash, approve_hash and subscriber_id. Exit status 0 when the subscription is active, 1 when the API
// refused the invitation (used, expired, cancelled, plan deprecated), the chain refused or reverted a transaction, or
// the confirmation did not come in time; 2 for a usage or set-up problem (no stack, no dev chain, a bad URL).

const fs = require('fs');
const path = require('path');
const { ethers } = require('ethers');
const { UUID, setUp, refused, tool, readStackEnv, call, problem, devChain, reason } = require('./dev-tool');

const USAGE = `usage: ./dev-subscribe [--periods <n>] [--wait <seconds>] "<subscription_link_url>"
  ./dev-subscribe "http://127.0.0.1:8080/checkout/subscribe?subscriber_id=…"
Subscribes the stack's customer account to an invitation (POST /subscriber/ answers subscription_link_url; ./run-local
prints one to its example plan) on the local dev chain. Settings: .local/stack.env, written by ./run-local
(STACK_ENV=<path>).`;

const { say, run } = tool('dev-subscribe');

function parseArguments(argv) {
  const options = { periods: 12, wait: 60, urls: [] };
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    if (argument === '--periods' || argument === '--wait') {
      const value = argv[++i];
      if (!/^[1-9][0-9]{0,5}$/.test(value || '')) throw setUp(`${argument} needs a whole number from 1\n${USAGE}`);
      options[argument.slice(2)] = Number(value);
    } else if (argument.startsWith('-')) {
      throw setUp(argument === '--help' || argument === '-h' ? USAGE : `unknown option ${argument}\n${USAGE}`);
    } else {
      options.urls.push(argument);
    }
  }
  if (options.urls.length !== 1) throw setUp(USAGE);
  return options;
}

/** The invitation's subscriber id and its page's status address, checked to be of the stack at BASE_URL. */
function parseInvitation(text, baseUrl) {
  let url;
  try {
    url = new URL(text);
  } catch (e) {
    throw setUp(`not a URL: ${text} (expected the subscription_link_url of an invitation)`);
  }
  const subscriberId = url.searchParams.get('subscriber_id') || '';
  if (!/^https?:$/.test(url.protocol) || !url.pathname.endsWith('/subscribe') || !UUID.test(subscriberId)) {
    throw setUp(`not an invitation's subscription_link_url (…/subscribe?subscriber_id=<uuid>): ${text}`);
  }
  const stack = new URL(baseUrl);
  if (url.origin !== stack.origin) {
    throw setUp(`the invitation is of ${url.origin}, not of the local stack at ${stack.origin} (BASE_URL): `
      + './dev-subscribe pays on the local dev chain only');
  }
  const status = new URL(url);
  status.pathname += '/status';
  status.search = `?subscriber_id=${subscriberId}`;
  return { subscriberId, statusUrl: status.toString() };
}

/** The subscription contract's ABI when it is compiled (build/, as DevChain compiles it), to name its reverts. */
function subscriptionContract() {
  const artifact = path.join(__dirname, 'build', 'CryptopaySubscriptions.json');
  try {
    return fs.existsSync(artifact) ? new ethers.Interface(JSON.parse(fs.readFileSync(artifact, 'utf8')).abi) : null;
  } catch (e) {
    return null; // unreadable: ethers' own words name the revert
  }
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const stack = readStackEnv(['BASE_URL'], ['DEV_CHAIN_RPC_URL', 'CUSTOMER_PRIVATE_KEY']);
  const baseUrl = stack.BASE_URL.replace(/\/+$/, '');
  const { subscriberId, statusUrl } = parseInvitation(options.urls[0], baseUrl);

  // The page's state first: an enrolment already reported and waiting for the chain must not be sent twice.
  const before = await call('GET', statusUrl);
  if (before.status !== 200) throw setUp(`no invitation ${subscriberId} on the stack at ${baseUrl}: ${problem(before)}`);
  if (before.json.state === 'pending') {
    throw refused(`this invitation's subscription was sent already and waits for the chain (${before.json.detail}); `
      + `see ${options.urls[0]}`);
  }

  const { network, provider } = await devChain(stack.DEV_CHAIN_RPC_URL);
  const customer = new ethers.Wallet(stack.CUSTOMER_PRIVATE_KEY, provider);
  const kitAnswer = await call('GET', `${baseUrl}/public/subscriber/prepare?subscriber_id=${subscriberId}`
    + `&wallet_address=${customer.address}&periods=${options.periods}`);
  if (kitAnswer.status !== 200) {
    const message = `the invitation cannot be used: ${problem(kitAnswer)}`;
    throw kitAnswer.status === 409 ? refused(message) : setUp(message);
  }
  const kit = kitAnswer.json;
  if (BigInt(kit.chain_id) !== network) {
    throw setUp(`the plan is on ${kit.network_name} (chain ${kit.chain_id}), but the dev chain is chain ${network}`);
  }
  const { approval, plan } = kit;
  say(`subscribing ${customer.address} to "${plan.name}" (${plan.formatted_amount} ${approval.currency_symbol} a `
    + `period) on ${stack.DEV_CHAIN_RPC_URL}: approving ${approval.formatted_amount} ${approval.currency_symbol} `
    + `(${approval.periods} periods) for ${kit.subscription_contract}`);
  if (BigInt(plan.trial_period) === 0n) {
    const token = new ethers.Contract(approval.token, ['function balanceOf(address) view returns (uint256)'], provider);
    const balance = await token.balanceOf(customer.address);
    if (balance < BigInt(plan.amount)) {
      throw refused(`the customer holds ${ethers.formatUnits(balance, approval.decimals)} ${approval.currency_symbol}`
        + `; the first payment needs ${plan.formatted_amount} ${approval.currency_symbol}`);
    }
  }

  const hashes = {};
  for (const transaction of kit.transactions) {
    const what = transaction.to.toLowerCase() === kit.subscription_contract.toLowerCase() ? 'subscribe'
      : transaction.to.toLowerCase() === approval.token.toLowerCase() ? 'approve' : `a call to ${transaction.to}`;
    let receipt;
    try {
      const sent = await customer.sendTransaction({
        to: transaction.to, data: transaction.data, value: BigInt(transaction.value || 0),
      });
      receipt = await sent.wait(1, 60_000);
    } catch (e) {
      throw refused(`the chain refused the ${what} transaction: ${reason(e, subscriptionContract())}`);
    }
    say(`${what}: ${receipt.hash} mined in block ${receipt.blockNumber}`);
    hashes[what] = receipt.hash;
  }
  if (!hashes.subscribe) throw refused('the enrolment kit listed no subscribe transaction');

  const enrolled = await call('POST', `${baseUrl}/public/subscriptions/link/`, {
    body: {
      subscription_plan_id: plan.id,
      subscriber_id: subscriberId,
      wallet_address: customer.address,
      subscribe_hash: hashes.subscribe,
      approvals: [{
        token_address: approval.token,
        amount_approved: approval.amount,
        network_name: approval.network_name,
        chain_id: Number(kit.chain_id),
        decimals: approval.decimals,
        ...(hashes.approve ? { approval_hash: hashes.approve } : {}),
      }],
    },
  });
  if (enrolled.status !== 201) {
    throw refused(`the subscribe transaction ${hashes.subscribe} is mined, but the enrolment was refused: `
      + problem(enrolled));
  }
  const linkId = enrolled.json.id;
  say(`enrolment reported (link ${linkId}); waiting up to ${options.wait} s for chain-watcher to confirm it`);

  const deadline = Date.now() + options.wait * 1000;
  let state = enrolled.json.chain_status;
  for (;;) {
    const status = await call('GET', statusUrl);
    state = status.json ? status.json.state : `HTTP ${status.status}`;
    if (state === 'active' || state === 'paused') break;
    if (status.json && (status.json.terminal || state === 'enrolment_failed')) {
      throw refused(`the subscription did not start: ${status.json.title} (${status.json.detail})`);
    }
    if (Date.now() > deadline) {
      throw refused(`not confirmed within ${options.wait} s (state ${state}): is chain-watcher running? Its log is `
        + '.local/logs/chain-watcher.log; the page shows the state: ' + options.urls[0]);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  say(`active: link ${linkId} (subscribe transaction ${hashes.subscribe}); the merchant sees it with `
    + `./signed-request GET /subscriptions/link/${linkId}`);
  console.log(JSON.stringify({
    subscription_link_id: linkId,
    subscribe_hash: hashes.subscribe,
    approve_hash: hashes.approve || null,
    subscriber_id: subscriberId,
  }));
}

run(main);
