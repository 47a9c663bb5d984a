'use strict';
// Deploys the subscription contract (CryptopaySubscriptions) to a network an operator names, from a key file, and
// checks what it deployed: code at the address, the owner, the EIP-712 domain wallets sign against, and the token of
// each currency value plans may bill. Prints the settings the services need.
//
// Usage:
//   node deploy-contract.js --rpc-url <https://…> --key-file <path> --chain-id <id>
//        [--owner <0x…>] [--currency <CODE>=<token 0x…>]… [--confirmations <n>]
//
//   --key-file       a file holding the deployer's private key (0x-hex); it pays the gas and is never printed
//   --chain-id       the chain the RPC endpoint must serve (refuses to deploy anywhere else)
//   --owner          who may change the currency tokens later (a multisig in production); default: the deployer
//   --currency       repeatable: a currency code value plans may bill and the ERC-20 that bills it (checked: it
//                    must have code and answer decimals())
//   --confirmations  blocks to wait for before checking (default 2; at most 10 minutes; a dev chain that mines only
//                    per transaction needs 1)
//
// Exits non-zero, with the reason, when an argument is wrong, the chain differs, or a check fails.

const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { ethers } = require('ethers');

function fail(message) {
  console.error(`deploy-contract.js: ${message}`);
  process.exit(1);
}

function parseArguments(argv) {
  const options = { currencies: [], confirmations: 2 };
  for (let i = 0; i < argv.length; i += 2) {
    const [name, value] = [argv[i], argv[i + 1]];
    if (value === undefined) fail(`${name} needs a value`);
    switch (name) {
      case '--rpc-url': options.rpcUrl = value; break;
      case '--key-file': options.keyFile = value; break;
      case '--chain-id': options.chainId = BigInt(value); break;
      case '--owner': options.owner = value; break;
      case '--confirmations': options.confirmations = Number(value); break;
      case '--currency': {
        const [code, token] = value.split('=');
        if (!/^[A-Z0-9]{2,10}$/.test(code || '') || !ethers.isAddress(token || '')) {
          fail(`--currency ${value}: expected CODE=0x<40 hex digits>, e.g. USDC=0xA0b8…`);
        }
        options.currencies.push({ code, token: ethers.getAddress(token) });
        break;
      }
      default: fail(`unknown argument ${name}`);
    }
  }
  for (const required of ['rpcUrl', 'keyFile', 'chainId']) {
    if (options[required] === undefined) fail(`--${required.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())} is required`);
  }
  if (options.owner !== undefined && !ethers.isAddress(options.owner)) fail(`--owner ${options.owner} is not an address`);
  if (!Number.isInteger(options.confirmations) || options.confirmations < 1) fail('--confirmations must be 1 or more');
  return options;
}

function artifact() {
  const file = path.join(__dirname, 'build', 'CryptopaySubscriptions.json');
  if (!fs.existsSync(file)) {
    execFileSync(process.execPath, [path.join(__dirname, 'compile.js')], { stdio: 'inherit' });
  }
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const key = fs.readFileSync(options.keyFile, 'utf8').trim();
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(key)) fail(`${options.keyFile} does not hold a 32-byte hex private key`);
  const provider = new ethers.JsonRpcProvider(options.rpcUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
  const network = await provider.getNetwork();
  if (network.chainId !== options.chainId) {
    fail(`the RPC endpoint serves chain ${network.chainId}, not --chain-id ${options.chainId}; nothing deployed`);
  }
  const deployer = new ethers.Wallet(key.startsWith('0x') ? key : '0x' + key, provider);
  const owner = ethers.getAddress(options.owner || deployer.address);
  const erc20 = ['function decimals() view returns (uint8)'];
  for (const { code, token } of options.currencies) {
    if ((await provider.getCode(token)) === '0x') fail(`${code}: ${token} has no code on chain ${network.chainId}`);
    await new ethers.Contract(token, erc20, provider).decimals().catch(() => fail(`${code}: ${token} is not an ERC-20`));
  }

  const { abi, bytecode } = artifact();
  const factory = new ethers.ContractFactory(abi, bytecode, deployer);
  const contract = await factory.deploy(
    owner, options.currencies.map((c) => c.code), options.currencies.map((c) => c.token));
  const transaction = contract.deploymentTransaction();
  console.error(`sent ${transaction.hash} from ${deployer.address}; waiting for ${options.confirmations} confirmation(s)`);
  const receipt = await transaction.wait(options.confirmations, 10 * 60 * 1000);
  const address = await contract.getAddress();

  // What wallets and services depend on, read back from the chain.
  if ((await provider.getCode(address)) === '0x') fail(`no code at ${address}`);
  if ((await contract.owner()) !== owner) fail(`owner() is not ${owner}`);
  const domain = await contract.eip712Domain();
  if (domain.name !== 'Cryptopay Subscriptions' || domain.version !== '1' || domain.chainId !== network.chainId
      || domain.verifyingContract !== address) {
    fail(`unexpected EIP-712 domain ${JSON.stringify(domain.toObject(), (k, v) => (typeof v === 'bigint' ? v.toString() : v))}`);
  }
  for (const { code, token } of options.currencies) {
    if ((await contract.currencyToken(ethers.id(code))) !== token) fail(`currencyToken(${code}) is not ${token}`);
  }

  console.log(JSON.stringify({
    chain_id: network.chainId.toString(),
    address,
    transaction: transaction.hash,
    block: receipt.blockNumber,
    owner,
    currencies: Object.fromEntries(options.currencies.map((c) => [c.code, c.token])),
    settings: {
      'subscriptions-service': `SUBSCRIPTIONS_CONTRACT_${network.chainId}=${address}`,
      'chain-watcher': `CHAINWATCHER_NETWORKS_<i>_SUBSCRIPTIONCONTRACT=${address} (the index of chain ${network.chainId})`,
    },
  }, null, 2));
}

main().catch((error) => fail(error.shortMessage || error.message));
