// Writes vectors.json: extended public keys and the addresses ethers derives from them at non-hardened indexes.
// Deterministic (no randomness, no clock): every run writes the same file.
import { HDNodeWallet, Mnemonic } from "ethers";
import { writeFileSync } from "node:fs";

// The well-known Anvil/Hardhat development mnemonic; its accounts must never hold real funds.
const DEV_MNEMONIC = "test test test test test test test test test test test junk";
const DEV_ACCOUNT_0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

const keys = [];

// A wallet's receiving chain m/44'/60'/0'/0: its children are the wallet's accounts 0, 1, 2, ...
const wallet = HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(DEV_MNEMONIC), "m/44'/60'/0'/0");
keys.push({ description: "dev mnemonic, m/44'/60'/0'/0", extended_public_key: wallet.neuter().extendedKey });

// BIP-32 test vector 1, chain m/0H/1/2H, and test vector 2, chain m.
keys.push({
  description: "BIP-32 test vector 1, m/0H/1/2H",
  extended_public_key:
    "xpub6D4BDPcP2GT577Vvch3R8wDkScZWzQzMMUm3PWbmWvVJrZwQY4VUNgqFJPMM3No2dFDFGTsxxpG5uJh7n7epu4trkrX7x7DogT5Uv6fcLW5",
});
keys.push({
  description: "BIP-32 test vector 2, m",
  extended_public_key:
    "xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB",
});

const indexes = [0, 1, 2, 7, 1000, 2147483647];
const vectors = keys.map((key) => {
  const node = HDNodeWallet.fromExtendedKey(key.extended_public_key);
  return {
    ...key,
    addresses: indexes.map((index) => ({ index, address: node.deriveChild(index).address })),
  };
});

if (vectors[0].addresses[0].address !== DEV_ACCOUNT_0) {
  throw new Error("index 0 of the dev mnemonic's receiving chain must be dev account 0");
}

writeFileSync("vectors.json", JSON.stringify({ generator: "ethers 6.17.0", vectors }, null, 2) + "\n");
console.log(`wrote ${vectors.length} keys x ${indexes.length} addresses`);
