// A wallet that knows nothing of this project's code: a general Ethereum library (ethers) and the subscription
// contract's pinned interface (function and event signatures, written out below as any integrator would), fed only
// with what the public API answers. The end-to-end test runs it for each wallet step.
//
//   node independent-wallet.mjs sign-plan --key <hex> --typed-data <file>       prints the EIP-712 signature
//   node independent-wallet.mjs subscribe --rpc <url> --key <hex> --plan <file> --ref <0x…> --contract <0x…> --periods <n>
//        approves periods × amount of the plan's token, subscribes; prints {approve, subscribe, subscription_id}
//   node independent-wallet.mjs cancel --rpc <url> --key <hex> --contract <0x…> --id <0x…>      prints {cancel}
//   node independent-wallet.mjs own-plan --rpc <url> --key <hex> --contract <0x…> --token <0x…> --amount <units>
//        --interval <s> --count <n>
//        a plan the platform never saw: this wallet is its merchant, signs it for the contract's own EIP-712 domain
//        (EIP-5267 eip712Domain()), approves and subscribes <n> times with random refs; prints {subscriptions: [id…]}
//
// <file>s hold JSON exactly as the API answered (the typed data of POST /subscriptions/plans/typed-data, a plan of
// GET /public/subscriptions/plans/{id}). Exits non-zero with the reason on any failure.
import { readFileSync } from 'node:fs';
import { ethers } from 'ethers';

// The pinned interface: nothing else about the contract is assumed.
const PLAN = '(address merchant, address destination, address token, uint256 amount, string currency, string value, '
  + 'uint64 interval, uint64 trialPeriod, uint64 maxArrears, uint32 autoCancelAfterMissed, uint64 subscribeDeadline, '
  + 'uint256 planNonce)';
const CONTRACT = new ethers.Interface([
  `function subscribe(${PLAN} plan, bytes merchantSig, bytes32 ref, uint64 endsAt) returns (bytes32)`,
  'function cancel(bytes32 id)',
  'event Subscribed(bytes32 indexed id, bytes32 indexed planId, address indexed subscriber, address merchant, '
    + 'address token, address destination, uint256 amount, uint64 firstDue, uint64 endsAt, bytes32 ref)',
]);
const DOMAIN = new ethers.Interface([
  'function eip712Domain() view returns (bytes1 fields, string name, string version, uint256 chainId, '
    + 'address verifyingContract, bytes32 salt, uint256[] extensions)',
]);
const PLAN_TYPES = {
  SubscriptionPlan: PLAN.slice(1, -1).split(', ').map((field) => {
    const [type, name] = field.split(' ');
    return { name, type };
  }),
};
const ERC20 = new ethers.Interface(['function approve(address spender, uint256 amount) returns (bool)']);
const ZERO = '0x0000000000000000000000000000000000000000';

function options(argv) {
  const found = {};
  for (let i = 0; i < argv.length; i += 2) found[argv[i].replace(/^--/, '')] = argv[i + 1];
  return found;
}

function signer(o) {
  // No request cache: a second transaction must see the nonce the first one used.
  const provider = o.rpc ? new ethers.JsonRpcProvider(o.rpc, undefined, { staticNetwork: true, cacheTimeout: -1 }) : undefined;
  return new ethers.Wallet(o.key, provider);
}

function subscribedId(contract, receipt) {
  const log = receipt.logs
    .filter((entry) => entry.address.toLowerCase() === contract.toLowerCase())
    .map((entry) => CONTRACT.parseLog(entry))
    .find((parsed) => parsed && parsed.name === 'Subscribed');
  if (!log) throw new Error('no Subscribed event in ' + receipt.hash);
  return log.args.id;
}

async function send(wallet, to, data) {
  const sent = await wallet.sendTransaction({ to, data });
  const receipt = await sent.wait(1);
  if (receipt.status !== 1) throw new Error(`transaction ${sent.hash} reverted`);
  return receipt;
}

const commands = {
  async 'sign-plan'(o) {
    const typed = JSON.parse(readFileSync(o['typed-data'], 'utf8'));
    const types = { ...typed.types };
    delete types.EIP712Domain; // ethers derives the domain type from the domain itself
    return { signature: await signer(o).signTypedData(typed.domain, types, typed.message) };
  },

  async subscribe(o) {
    const plan = JSON.parse(readFileSync(o.plan, 'utf8'));
    const byValue = plan.value !== null && plan.value !== undefined;
    // The plan tuple exactly as the merchant signed it: a value plan signs the zero token and amount 0.
    const tuple = [
      plan.merchant_address, plan.destination_address, byValue ? ZERO : plan.token, byValue ? 0n : BigInt(plan.amount),
      byValue ? plan.currency : '', byValue ? plan.value : '', BigInt(plan.interval), BigInt(plan.trial_period),
      BigInt(plan.max_arrears), BigInt(plan.auto_cancel_after_missed), BigInt(plan.subscribe_deadline),
      BigInt(plan.plan_nonce),
    ];
    const token = byValue ? o.token : plan.token;
    const wallet = signer(o);
    const approve = await send(wallet, token, ERC20.encodeFunctionData('approve', [o.contract, BigInt(plan.amount) * BigInt(o.periods)]));
    const subscribed = await send(wallet, o.contract, CONTRACT.encodeFunctionData('subscribe', [tuple, plan.merchant_sig, o.ref, 0n]));
    return { approve: approve.hash, subscribe: subscribed.hash, subscription_id: subscribedId(o.contract, subscribed) };
  },

  async 'own-plan'(o) {
    const wallet = signer(o);
    const [, name, version, chainId, verifyingContract] = DOMAIN.decodeFunctionResult(
      'eip712Domain', await wallet.provider.call({ to: o.contract, data: DOMAIN.encodeFunctionData('eip712Domain') }));
    const plan = {
      merchant: wallet.address, destination: ethers.Wallet.createRandom().address, token: o.token, amount: BigInt(o.amount), currency: '',
      value: '', interval: BigInt(o.interval), trialPeriod: 0n, maxArrears: 0n, autoCancelAfterMissed: 0n,
      subscribeDeadline: 0n, planNonce: BigInt(Date.now()),
    };
    const signature = await wallet.signTypedData({ name, version, chainId, verifyingContract }, PLAN_TYPES, plan);
    const count = Number(o.count);
    await send(wallet, o.token, ERC20.encodeFunctionData('approve', [o.contract, plan.amount * BigInt(count) * 100n]));
    const subscriptions = [];
    for (let i = 0; i < count; i++) {
      const subscribed = await send(wallet, o.contract,
        CONTRACT.encodeFunctionData('subscribe', [Object.values(plan), signature, ethers.hexlify(ethers.randomBytes(32)), 0n]));
      subscriptions.push(subscribedId(o.contract, subscribed));
    }
    return { subscriptions };
  },

  async cancel(o) {
    const receipt = await send(signer(o), o.contract, CONTRACT.encodeFunctionData('cancel', [o.id]));
    return { cancel: receipt.hash };
  },
};

const [command, ...rest] = process.argv.slice(2);
if (!commands[command]) {
  console.error(`usage: node independent-wallet.mjs ${Object.keys(commands).join('|')} --option value …`);
  process.exit(2);
}
commands[command](options(rest))
  .then((answer) => console.log(JSON.stringify(answer)))
  .catch((error) => {
    console.error(`independent-wallet: ${error.shortMessage || error.message}`);
    process.exit(1);
  });
