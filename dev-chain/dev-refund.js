'use strict';
// ./dev-refund "<payment_uri>": pays a payment link's refund on the dev chain from the sandbox wallet, as the
// merchant's own wallet does (the platform holds no key): finds the open refund with this payment_uri among the sandbox
// merchant's links (GET /payment_links, then GET /payment_links/{id}/refunds, signed with the sandbox key), derives
// the private key of its deposit address (from_address) from the sandbox wallet's mnemonic, gives that address the gas
// it lacks from anvil's dev account 3, and sends exactly what the URI asks: the token's transfer, or the native coin.
//
// Usage (the root script ./dev-refund runs this with the settings file of the stack):
//   node dev-chain/dev-refund.js [--link <payment_link_id>] "<payment_uri>"
//
//   --link  the refund's payment link (its payment_link_id); without it the refund is looked for among the sandbox
//           merchant's 300 most recently updated links whose deposit address holds what the refund sends
//
// Settings: STACK_ENV (default .local/stack.env, written by ./run-local): BASE_URL, API_KEY, PRIVATE_KEY,
// SANDBOX_WALLET_XPUB and DEV_CHAIN_RPC_URL; the mnemonic is sandbox-wallet.txt next to it. What it does goes to
// stderr; stdout gets one JSON line with refund_id, payment_link_id, hash, from, to, amount (base units), token (null
// for the native coin) and funding_hash (the gas sent to the deposit address, null when it had enough). Exit status 0
// when the transfer is mined; 1 when there is no open refund with this payment_uri (paid already, failed, expired or
// never asked), the deposit address holds too little or is not the sandbox wallet's, the API refused a request, or the
// chain refused or reverted the transfer; 2 for a usage or set-up problem (no stack, no dev chain, a URI that is no
// refund's payment_uri or one of another chain, an unknown link).

const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { ethers } = require('ethers');
const { UUID, setUp, refused, tool, readStackEnv, call, problem, devChain, reason } = require('./dev-tool');

const USAGE = `usage: ./dev-refund [--link <payment_link_id>] "<payment_uri>"
  ./dev-refund "ethereum:0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512@31337/transfer?address=0x…&uint256=2500000"
Pays a refund (POST /payment_links/<id>/refunds answers its payment_uri; quote it: it holds '&') from the link's
deposit address with the sandbox wallet's key, on the local dev chain. --link names the refund's payment link (else it
is looked for among the sandbox merchant's latest links). Settings: .local/stack.env and .local/sandbox-wallet.txt,
written by ./run-local (STACK_ENV=<path>).`;
/** The two EIP-681 forms payment-links-service writes (ChainPayment.uri): a token's transfer, or the native coin. */
const URI = new RegExp('^ethereum:(0x[0-9a-fA-F]{40})@([0-9]{1,18})'
  + '(?:/transfer\\?address=(0x[0-9a-fA-F]{40})&uint256=|\\?value=)([0-9]{1,78})$');
/** The sandbox wallet's receiving chain, registered as the merchant's receiving key: deposit addresses are children. */
const RECEIVING_PATH = "m/44'/60'/0'/0";
/** Anvil's dev account 3 of the public mnemonic "test … junk", unlocked on the dev chain: deposit addresses' gas. */
const GAS_FUNDER = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
/** How many of the merchant's links (most recently updated first) a refund is looked for among without --link. */
const LINK_PAGES = 3;
const PAGE_SIZE = 100;
/** How many links' refunds are read at most without --link (the gateway allows 30 link reads a minute by default). */
const MAX_REFUND_READS = 10;

const { say, run } = tool('dev-refund');

function parseArguments(argv) {
  const options = { link: null, uris: [] };
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    if (argument === '--link') {
      const value = argv[++i];
      if (!UUID.test(value || '')) throw setUp(`--link needs a payment link's id (a UUID)\n${USAGE}`);
      options.link = value.toLowerCase();
    } else if (argument.startsWith('-')) {
      throw setUp(argument === '--help' || argument === '-h' ? USAGE : `unknown option ${argument}\n${USAGE}`);
    } else {
      options.uris.push(argument);
    }
  }
  if (options.uris.length !== 1) throw setUp(USAGE);
  return options;
}

/** An EIP-55 address, or lower case; a mistyped checksum is refused (ethers.getAddress). */
function address(text, what) {
  try {
    return ethers.getAddress(text);
  } catch (e) {
    throw setUp(`${what} ${text} has a wrong EIP-55 checksum (a typo?)`);
  }
}

/** A refund's payment_uri: chain id, token (null for the native coin), recipient and amount in base units. */
function parseUri(text) {
  const shape = URI.exec(text.trim());
  if (!shape) {
    throw setUp(`not a refund's payment_uri (ethereum:<token>@<chain id>/transfer?address=<to>&uint256=<base units>, `
      + `or ethereum:<to>@<chain id>?value=<wei>): ${text}`);
  }
  const amount = BigInt(shape[4]);
  if (amount === 0n || amount >= 2n ** 256n) throw setUp(`the amount ${amount} must be more than 0 and fit 256 bits`);
  const target = address(shape[1], 'the address');
  return shape[3] === undefined
    ? { chainId: BigInt(shape[2]), token: null, to: target, amount }
    : { chainId: BigInt(shape[2]), token: target, to: address(shape[3], 'the recipient'), amount };
}

/** Whether two payment URIs ask the same transfer (addresses in any case). */
function same(a, b) {
  return a.chainId === b.chainId && a.amount === b.amount && a.to.toLowerCase() === b.to.toLowerCase()
    && (a.token || '').toLowerCase() === (b.token || '').toLowerCase();
}

/**
 * The sandbox wallet's receiving node (m/44'/60'/0'/0) from sandbox-wallet.txt next to stack.env (its first line that
 * is neither empty nor a # comment, as the launcher reads it), checked to be the key stack.env names.
 */
function sandboxWallet(stack) {
  const file = path.join(path.dirname(stack.file), 'sandbox-wallet.txt');
  if (!fs.existsSync(file)) {
    throw setUp(`${file} does not exist: the sandbox wallet's mnemonic is written there by ./run-local, next to `
      + `${path.basename(stack.file)}`);
  }
  const phrase = fs.readFileSync(file, 'utf8').split(/\r?\n/).map((line) => line.trim())
    .find((line) => line && !line.startsWith('#'));
  let receiving;
  try {
    receiving = ethers.HDNodeWallet.fromPhrase(phrase || '', '', RECEIVING_PATH);
  } catch (e) {
    throw setUp(`${file} holds no valid BIP-39 mnemonic (${e.shortMessage || e.message})`);
  }
  if (receiving.neuter().extendedKey !== stack.SANDBOX_WALLET_XPUB) {
    throw setUp(`${file} is not the wallet ${stack.file} names (SANDBOX_WALLET_XPUB): restart the stack with `
      + './run-local, which writes both');
  }
  return receiving;
}

/**
 * The sandbox merchant's signed GET, as ./signed-request sends it (auth-lib's canonical request): the signature of
 * METHOD + PATH + TIMESTAMP (no body) with the stack's private key, PATH following BASE_URL.
 */
function merchantApi(stack) {
  const baseUrl = stack.BASE_URL.replace(/\/+$/, '');
  let key;
  try {
    key = crypto.createPrivateKey({
      key: Buffer.from(stack.PRIVATE_KEY.replace(/^ed25519:/i, ''), 'base64'), format: 'der', type: 'pkcs8',
    });
  } catch (e) {
    throw setUp(`PRIVATE_KEY of ${stack.file} is not the one-line Ed25519:<Base64 PKCS#8> form ./run-local writes`);
  }
  const sign = (bytes) => (key.asymmetricKeyType === 'rsa'
    ? crypto.sign('sha256', bytes, { key, padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 })
    : crypto.sign(null, bytes, key));
  return async (relative) => {
    const timestamp = new Date().toISOString();
    const signature = sign(Buffer.from(`GET${relative}${timestamp}`, 'utf8')).toString('base64');
    const answer = await call('GET', baseUrl + relative, {
      headers: { 'X-API-Key': stack.API_KEY, 'X-API-Timestamp': timestamp, 'X-API-Signature': signature },
    });
    if (answer.status === 401 || answer.status === 403) {
      throw setUp(`GET ${relative} was refused: ${problem(answer)}. Is ${stack.file} this stack's (./run-local)?`);
    }
    return answer;
  };
}

/** A link's refunds (newest first); a link the merchant does not have is a usage problem. */
async function refundsOf(api, linkId) {
  const answer = await api(`/payment_links/${linkId}/refunds?limit=${PAGE_SIZE}`);
  if (answer.status === 404) throw setUp(`no payment link ${linkId} of the sandbox merchant: ${problem(answer)}`);
  if (answer.status !== 200) throw refused(`the refunds of link ${linkId} cannot be read: ${problem(answer)}`);
  return answer.json.data.data;
}

/**
 * Of a link's refunds, those asking exactly this transfer: the oldest open one (the one a transfer pays), else why
 * none is open — paid (pending, completed), failed, or expired and about to be failed.
 */
function judge(refunds, uri, now) {
  const matching = refunds.filter((refund) => {
    try {
      return same(parseUri(refund.payment_uri), uri);
    } catch (e) {
      return false;
    }
  });
  const open = matching.filter((refund) => refund.status === 'initiated' && Date.parse(refund.expires_at) > now);
  if (open.length > 0) return { refund: open[open.length - 1] };
  const why = matching.map((refund) => {
    if (refund.status === 'initiated') return `refund ${refund.id} expired at ${refund.expires_at}`;
    if (refund.status === 'failed') return `refund ${refund.id} failed (${refund.failure_reason})`;
    return `refund ${refund.id} is ${refund.status}, paid by ${refund.tx_hash}`;
  });
  return { why };
}

/** What the address holds of the URI's asset: the token's balance, or the native coin's. */
async function holding(provider, uri, holder) {
  if (uri.token === null) return provider.getBalance(holder);
  const token = new ethers.Contract(uri.token, ['function balanceOf(address) view returns (uint256)'], provider);
  try {
    return await token.balanceOf(holder);
  } catch (e) {
    throw refused(`${uri.token} answers no balanceOf on the dev chain: is it a token there? `
      + `(${e.shortMessage || e.message})`);
  }
}

/**
 * The open refund with this URI: the named link's, else among the merchant's most recently updated links on the URI's
 * chain whose deposit address holds the amount (a refund is paid from there), reading as few links' refunds as it can.
 */
async function findRefund(api, provider, uri, linkId) {
  const now = Date.now();
  if (linkId) {
    const found = judge(await refundsOf(api, linkId), uri, now);
    if (found.refund) return found.refund;
    throw refused(found.why.length > 0
      ? `no open refund with this payment_uri on link ${linkId}: ${found.why.join('; ')}`
      : `link ${linkId} has no refund with this payment_uri (POST /payment_links/${linkId}/refunds asks one)`);
  }
  const reasons = [];
  let listed = 0;
  let read = 0;
  for (let page = 1; page <= LINK_PAGES; page++) {
    const answer = await api(`/payment_links?limit=${PAGE_SIZE}&page=${page}&sort_by=updated_at&sort_order=desc`);
    if (answer.status !== 200) throw refused(`the sandbox merchant's links cannot be listed: ${problem(answer)}`);
    const { data: links, pagination } = answer.json.data;
    listed += links.length;
    for (const link of links) {
      if (!link.deposit_address || BigInt(link.chain_id || 0) !== uri.chainId) continue;
      if (await holding(provider, uri, link.deposit_address) < uri.amount) continue;
      if (read === MAX_REFUND_READS) {
        throw refused(`no open refund with this payment_uri among the first ${read} links whose deposit address holds `
          + 'the amount: name its link with --link <payment_link_id>');
      }
      read += 1;
      const found = judge(await refundsOf(api, link.id), uri, now);
      if (found.refund) return found.refund;
      reasons.push(...found.why);
    }
    if (!pagination.has_next_page) break;
  }
  throw refused(`no open refund with this payment_uri among the sandbox merchant's ${listed} most recently updated `
    + `links whose deposit address holds ${uri.amount} base units of ${uri.token || 'the native coin'} (${read} `
    + `checked)${reasons.length > 0 ? `: ${reasons.join('; ')}` : ''}. Paid already? Its link shows it: `
    + './signed-request GET /payment_links/<id>/refunds; or name the link with --link <payment_link_id>');
}

/**
 * The deposit address's signing key: the sandbox wallet's child whose address it is, searched from the newest address
 * the merchant's current receiving key issued down to its first (GET /payment_links/receiving_key says how many).
 */
async function depositKey(api, receiving, deposit) {
  const answer = await api('/payment_links/receiving_key');
  if (answer.status !== 200) throw refused(`the receiving key cannot be read: ${problem(answer)}`);
  const key = answer.json.data;
  if (key.extended_public_key !== receiving.neuter().extendedKey) {
    throw refused(`the sandbox merchant's receiving key is not the sandbox wallet's (${key.extended_public_key}): `
      + `its deposit address ${deposit} is paid from the wallet that key is of`);
  }
  for (let index = Number(key.addresses_issued) - 1; index >= 0; index--) {
    const child = receiving.deriveChild(index);
    if (child.address.toLowerCase() === deposit.toLowerCase()) return { wallet: child, index };
  }
  throw refused(`${deposit} is none of the sandbox wallet's ${key.addresses_issued} deposit addresses: its link was `
    + 'paid to another receiving key');
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const uri = parseUri(options.uris[0]);
  const stack = readStackEnv(['BASE_URL', 'API_KEY', 'PRIVATE_KEY', 'SANDBOX_WALLET_XPUB'], ['DEV_CHAIN_RPC_URL']);
  const receiving = sandboxWallet(stack);
  const { network, provider } = await devChain(stack.DEV_CHAIN_RPC_URL);
  if (uri.chainId !== network) {
    throw setUp(`the refund is on chain ${uri.chainId}, but the dev chain is chain ${network}: a live-mode refund is `
      + 'paid on its real network, from your own wallet');
  }
  const api = merchantApi(stack);

  const refund = await findRefund(api, provider, uri, options.link);
  const what = `${ethers.formatUnits(uri.amount, refund.decimals)} ${refund.asset}`;
  say(`refund ${refund.id} of link ${refund.payment_link_id}: ${what} from ${refund.from_address} to ${uri.to} on `
    + `${stack.DEV_CHAIN_RPC_URL}`);
  const { wallet, index } = await depositKey(api, receiving, refund.from_address);
  const payer = wallet.connect(provider);
  say(`signing with the sandbox wallet's address ${index} (${RECEIVING_PATH}/${index})`);

  const held = await holding(provider, uri, payer.address);
  if (held < uri.amount) {
    throw refused(`the deposit address ${payer.address} holds ${ethers.formatUnits(held, refund.decimals)} `
      + `${refund.asset}; the refund sends ${what}`);
  }
  const transfer = uri.token === null
    ? { to: uri.to, value: uri.amount, data: '0x' }
    : {
      to: uri.token,
      value: 0n,
      data: new ethers.Interface(['function transfer(address to, uint256 amount) returns (bool)'])
        .encodeFunctionData('transfer', [uri.to, uri.amount]),
    };
  let gasLimit;
  try {
    gasLimit = await provider.estimateGas({ ...transfer, from: payer.address });
  } catch (e) {
    throw refused(`the chain refuses the transfer: ${reason(e)}`);
  }
  const fees = await provider.getFeeData();
  const feePerGas = fees.maxFeePerGas || fees.gasPrice;
  const fee = fees.maxFeePerGas
    ? { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas }
    : { gasPrice: fees.gasPrice };

  // The deposit address has only what customers sent it: its gas comes from a dev account, no more than it lacks.
  const native = await provider.getBalance(payer.address);
  const needed = transfer.value + gasLimit * feePerGas;
  let fundingHash = null;
  if (native < needed) {
    try {
      const funder = await provider.getSigner(GAS_FUNDER);
      const sent = await funder.sendTransaction({ to: payer.address, value: needed - native });
      const receipt = await sent.wait(1, 60_000);
      fundingHash = receipt.hash;
    } catch (e) {
      throw refused(`anvil's dev account 3 (${GAS_FUNDER}) could not send the deposit address its gas: ${reason(e)}`);
    }
    say(`gas: ${ethers.formatEther(needed - native)} ETH from anvil's dev account 3 (${GAS_FUNDER}), ${fundingHash}`);
  }

  let receipt;
  try {
    const sent = await payer.sendTransaction({ ...transfer, gasLimit, ...fee });
    receipt = await sent.wait(1, 60_000);
  } catch (e) {
    throw refused(`the chain refused the transfer: ${reason(e)}`);
  }
  say(`transfer: ${receipt.hash} mined in block ${receipt.blockNumber}; chain-watcher reports it, then the refund `
    + `is completed: ./signed-request GET /payment_links/${refund.payment_link_id}/refunds`);
  console.log(JSON.stringify({
    refund_id: refund.id,
    payment_link_id: refund.payment_link_id,
    hash: receipt.hash,
    from: payer.address,
    to: uri.to,
    amount: uri.amount.toString(),
    token: uri.token,
    funding_hash: fundingHash,
  }));
}

run(main);
