// Writes vectors.json: EIP-712 known-answer vectors for the SubscriptionPlan
// typed data, computed and signed with ethers. Deterministic: fixed inputs,
// no randomness, no dates; ECDSA signatures from ethers are RFC 6979.
//
// Regenerate with:  npm ci --ignore-scripts && node generate-vectors.mjs

import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import {
  version as ethersVersion,
  Wallet,
  TypedDataEncoder,
  verifyTypedData,
  getAddress,
  keccak256,
  toUtf8Bytes,
  concat,
  Signature,
  ZeroAddress,
} from "ethers";

function check(condition, message) {
  if (!condition) {
    console.error("generate-vectors: check failed: " + message);
    process.exit(1);
  }
}

function checksummed(address) {
  check(getAddress(address) === address, `address not in checksum form: ${address}`);
  return address;
}

const EIP712_DOMAIN_TYPE = [
  { name: "name", type: "string" },
  { name: "version", type: "string" },
  { name: "chainId", type: "uint256" },
  { name: "verifyingContract", type: "address" },
];

const PLAN_TYPE = [
  { name: "merchant", type: "address" },
  { name: "destination", type: "address" },
  { name: "token", type: "address" },
  { name: "amount", type: "uint256" },
  { name: "currency", type: "string" },
  { name: "value", type: "string" },
  { name: "interval", type: "uint64" },
  { name: "trialPeriod", type: "uint64" },
  { name: "maxArrears", type: "uint64" },
  { name: "autoCancelAfterMissed", type: "uint32" },
  { name: "subscribeDeadline", type: "uint64" },
  { name: "planNonce", type: "uint256" },
];

const PLAN_TYPE_STRING =
  "SubscriptionPlan(address merchant,address destination,address token,uint256 amount," +
  "string currency,string value,uint64 interval,uint64 trialPeriod,uint64 maxArrears," +
  "uint32 autoCancelAfterMissed,uint64 subscribeDeadline,uint256 planNonce)";

// Removes EIP712Domain, which ethers derives from the domain object itself.
function withoutDomainType(types) {
  const copy = { ...types };
  delete copy.EIP712Domain;
  return copy;
}

// Digest computed two ways with ethers: the one-call hash, and the
// "\x19\x01" || domainSeparator || hashStruct(message) construction.
function digestOf(typedData) {
  const types = withoutDomainType(typedData.types);
  const digest = TypedDataEncoder.hash(typedData.domain, types, typedData.message);
  const manual = keccak256(
    concat([
      "0x1901",
      TypedDataEncoder.hashDomain(typedData.domain),
      TypedDataEncoder.from(types).hash(typedData.message),
    ]),
  );
  check(digest === manual, `${typedData.primaryType}: hash and manual digest differ`);
  return digest;
}

// ---------------------------------------------------------------------------
// The Mail example from the EIP-712 specification.
// ---------------------------------------------------------------------------

const MAIL_DIGEST = "0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2";

const mailTypedData = {
  types: {
    EIP712Domain: EIP712_DOMAIN_TYPE,
    Person: [
      { name: "name", type: "string" },
      { name: "wallet", type: "address" },
    ],
    Mail: [
      { name: "from", type: "Person" },
      { name: "to", type: "Person" },
      { name: "contents", type: "string" },
    ],
  },
  primaryType: "Mail",
  domain: {
    name: "Ether Mail",
    version: "1",
    chainId: 1,
    verifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC",
  },
  message: {
    from: { name: "Cow", wallet: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826" },
    to: { name: "Bob", wallet: "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB" },
    contents: "Hello, Bob!",
  },
};

const mailDigest = digestOf(mailTypedData);
check(mailDigest === MAIL_DIGEST, `Mail digest ${mailDigest} is not the specification's ${MAIL_DIGEST}`);

// ---------------------------------------------------------------------------
// SubscriptionPlan cases.
// ---------------------------------------------------------------------------

// Anvil/Hardhat default development accounts #0 and #1 (public keys, no real funds).
const KEYS = [
  {
    privateKey: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
    address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
  },
  {
    privateKey: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
    address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  },
];
for (const key of KEYS) {
  check(new Wallet(key.privateKey).address === key.address, `key does not derive ${key.address}`);
}

// Other addresses used in the messages (all checked to be in checksum form).
const ANVIL_ACCOUNT_2 = checksummed("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC");
const ANVIL_ACCOUNT_3 = checksummed("0x90F79bf6EB2c4f870365E785982E1f101E93b906");
const ANVIL_SECOND_DEPLOYMENT = checksummed("0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512");
const SEPOLIA_USDC = checksummed("0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238");

const UINT256_MAX = ((1n << 256n) - 1n).toString();
const UINT64_MAX = ((1n << 64n) - 1n).toString();
const UINT32_MAX = ((1n << 32n) - 1n).toString();

function domain(chainId, verifyingContract) {
  return {
    name: "Cryptopay Subscriptions",
    version: "1",
    chainId,
    verifyingContract: checksummed(verifyingContract),
  };
}

// Builds the message in the type's field order; integers as decimal strings,
// absent integers 0, absent strings "".
function plan(fields) {
  const message = {
    merchant: fields.merchant,
    destination: fields.destination,
    token: fields.token ?? ZeroAddress,
    amount: fields.amount ?? "0",
    currency: fields.currency ?? "",
    value: fields.value ?? "",
    interval: fields.interval ?? "0",
    trialPeriod: fields.trialPeriod ?? "0",
    maxArrears: fields.maxArrears ?? "0",
    autoCancelAfterMissed: fields.autoCancelAfterMissed ?? "0",
    subscribeDeadline: fields.subscribeDeadline ?? "0",
    planNonce: fields.planNonce ?? "0",
  };
  for (const name of Object.keys(message)) {
    check(typeof message[name] === "string", `plan field ${name} must be a string`);
  }
  return message;
}

function lowerCaseAddresses(message) {
  return {
    ...message,
    merchant: message.merchant.toLowerCase(),
    destination: message.destination.toLowerCase(),
    token: message.token.toLowerCase(),
  };
}

const case1Message = plan({
  merchant: KEYS[0].address,
  destination: ANVIL_ACCOUNT_2,
  token: ANVIL_SECOND_DEPLOYMENT,
  amount: "10000000",
  interval: "2592000",
  trialPeriod: "604800",
  maxArrears: "259200",
  autoCancelAfterMissed: "3",
  subscribeDeadline: "86400",
  planNonce: "0",
});

const CASES = [
  {
    name: "amount-based, local chain 31337, checksummed addresses, 10 units of a 6-decimal token every 30 days",
    key: KEYS[0],
    domain: domain(31337, "0x5FbDB2315678afecb367f032d93F642f64180aa3"),
    message: case1Message,
  },
  {
    name: "same terms as the first case with every message address in lower case (same digest)",
    key: KEYS[0],
    domain: domain(31337, "0x5FbDB2315678afecb367f032d93F642f64180aa3"),
    message: lowerCaseAddresses(case1Message),
  },
  {
    name: "value-based USD 9.99, local chain 31337, second key, plan nonce 1",
    key: KEYS[1],
    domain: domain(31337, "0x5FbDB2315678afecb367f032d93F642f64180aa3"),
    message: plan({
      merchant: KEYS[1].address,
      destination: ANVIL_ACCOUNT_3,
      currency: "USD",
      value: "9.99",
      interval: "2592000",
      trialPeriod: "0",
      maxArrears: "259200",
      autoCancelAfterMissed: "3",
      subscribeDeadline: "86400",
      planNonce: "1",
    }),
  },
  {
    name: "extreme integers: uint256, uint64 and uint32 maxima, chain 1",
    key: KEYS[0],
    domain: domain(1, "0x1111111111111111111111111111111111111111"),
    message: plan({
      merchant: KEYS[0].address,
      destination: ANVIL_ACCOUNT_2,
      token: ANVIL_SECOND_DEPLOYMENT,
      amount: UINT256_MAX,
      interval: UINT64_MAX,
      trialPeriod: UINT64_MAX,
      maxArrears: UINT64_MAX,
      autoCancelAfterMissed: UINT32_MAX,
      subscribeDeadline: UINT64_MAX,
      planNonce: UINT256_MAX,
    }),
  },
  {
    name: "amount-based on Sepolia 11155111 with the Sepolia USDC token, 25 USDC weekly",
    key: KEYS[0],
    domain: domain(11155111, "0x2222222222222222222222222222222222222222"),
    message: plan({
      merchant: KEYS[0].address,
      destination: ANVIL_ACCOUNT_3,
      token: SEPOLIA_USDC,
      amount: "25000000",
      interval: "604800",
      trialPeriod: "0",
      maxArrears: "86400",
      autoCancelAfterMissed: "2",
      subscribeDeadline: "172800",
      planNonce: "7",
    }),
  },
  {
    name: "value-based with non-ASCII currency EUR€ and value 0.000001 (UTF-8 string hashing)",
    key: KEYS[1],
    domain: domain(31337, "0x5FbDB2315678afecb367f032d93F642f64180aa3"),
    message: plan({
      merchant: KEYS[1].address,
      destination: ANVIL_ACCOUNT_2,
      currency: "EUR\u20ac",
      value: "0.000001",
      interval: "86400",
      trialPeriod: "0",
      maxArrears: "0",
      autoCancelAfterMissed: "1",
      subscribeDeadline: "3600",
      planNonce: "2",
    }),
  },
  {
    name: "amount-based with every optional integer 0",
    key: KEYS[0],
    domain: domain(31337, "0x5FbDB2315678afecb367f032d93F642f64180aa3"),
    message: plan({
      merchant: KEYS[0].address,
      destination: ANVIL_ACCOUNT_2,
      token: ANVIL_SECOND_DEPLOYMENT,
      amount: "1",
    }),
  },
];

const planTypes = { EIP712Domain: EIP712_DOMAIN_TYPE, SubscriptionPlan: PLAN_TYPE };
check(
  TypedDataEncoder.from(withoutDomainType(planTypes)).encodeType("SubscriptionPlan") === PLAN_TYPE_STRING,
  "SubscriptionPlan type string differs from the contract",
);

const plans = [];
for (const c of CASES) {
  const wallet = new Wallet(c.key.privateKey);
  check(getAddress(c.message.merchant) === wallet.address, `${c.name}: merchant is not the signer`);

  const isValueBased = c.message.token.toLowerCase() === ZeroAddress;
  if (isValueBased) {
    check(c.message.amount === "0" && c.message.currency !== "" && c.message.value !== "",
      `${c.name}: value-based plan needs amount 0, currency and value`);
  } else {
    check(BigInt(c.message.amount) > 0n && c.message.currency === "" && c.message.value === "",
      `${c.name}: amount-based plan needs amount > 0 and empty currency and value`);
  }

  const typedData = {
    types: planTypes,
    primaryType: "SubscriptionPlan",
    domain: c.domain,
    message: c.message,
  };
  const types = withoutDomainType(typedData.types);
  const digest = digestOf(typedData);
  const signature = await wallet.signTypedData(typedData.domain, types, typedData.message);

  check(/^0x[0-9a-f]{130}$/.test(signature), `${c.name}: signature is not 65 bytes`);
  const v = Signature.from(signature).v;
  check(v === 27 || v === 28, `${c.name}: unexpected v ${v}`);
  check(verifyTypedData(typedData.domain, types, typedData.message, signature) === wallet.address,
    `${c.name}: verifyTypedData does not return the signer`);

  plans.push({
    name: c.name,
    private_key: c.key.privateKey,
    signer: wallet.address,
    typed_data: typedData,
    digest,
    signature,
  });
}

check(plans[1].digest === plans[0].digest, "lower-case addresses change the digest");
check(plans[1].signature === plans[0].signature, "lower-case addresses change the signature");
check(new Set(plans.map((p) => p.digest)).size === plans.length - 1, "unexpected repeated digest");
// The non-ASCII case really hashes UTF-8 bytes ("€" is three bytes).
check(toUtf8Bytes("EUR\u20ac").length === 6, "EUR€ is not 6 UTF-8 bytes");

const vectors = {
  generator: `ethers ${ethersVersion}`,
  mail: { typed_data: mailTypedData, digest: mailDigest },
  plans,
};

const out = join(dirname(fileURLToPath(import.meta.url)), "vectors.json");
writeFileSync(out, JSON.stringify(vectors, null, 2) + "\n", "utf8");
console.log(`wrote ${out}: mail + ${plans.length} plans, ethers ${ethersVersion}`);
for (const p of plans) console.log(`${p.digest}  ${p.name}`);
