// cryptopay customer pages: the browser wallet, shared by the payment checkout and the subscribe page (plain ES2020,
// no framework, no build; served inside each page's script bundle, before the page's own code).
//
// cryptopayWallet finds the wallet (EIP-6963 announcements, falling back to window.ethereum, EIP-1193), connects an
// account, switches the chain, sends a transaction and waits for its receipt, reads a token (balanceOf, allowance),
// simulates a call, and says a wallet's errors in the customer's words. Nothing here touches the page except through
// the callbacks a page gives.
'use strict';

const cryptopayWallet = (() => {
  const BALANCE_OF = '0x70a08231'; // ERC-20 balanceOf(address)
  const ALLOWANCE = '0xdd62ed3e'; // ERC-20 allowance(address,address)
  const RECEIPT_POLL_MILLIS = 1000;

  /** A failure already worded for the customer; {@code problem} is a stable name pages and tests can read. */
  class WalletError extends Error {
    constructor(message, problem) {
      super(message);
      this.problem = problem || 'wallet';
    }
  }

  // ---- discovery: EIP-6963, falling back to window.ethereum (EIP-1193) ----

  const announced = [];
  const watchers = [];

  function changed() {
    watchers.forEach((watcher) => watcher());
  }

  window.addEventListener('eip6963:announceProvider', (event) => {
    const detail = event.detail;
    if (detail && detail.provider && !announced.some((known) => known.info.uuid === detail.info.uuid)) {
      announced.push(detail);
      changed();
    }
  });
  window.dispatchEvent(new Event('eip6963:requestProvider'));
  window.addEventListener('ethereum#initialized', changed, { once: true });

  /** The wallet to use: the first one announced, else window.ethereum, else null. */
  function provider() {
    if (announced.length > 0) {
      return announced[0].provider;
    }
    return window.ethereum || null;
  }

  /** Calls {@code watcher} whenever a wallet announces itself late (pages show their wallet buttons then). */
  function onChange(watcher) {
    watchers.push(watcher);
  }

  // ---- requests ----

  /** Asks the wallet for its accounts; answers the first one. */
  async function connect(wallet) {
    const accounts = await wallet.request({ method: 'eth_requestAccounts' });
    if (!accounts || accounts.length === 0) {
      throw new WalletError('Your wallet shared no account. Unlock it and try again.', 'no_account');
    }
    return accounts[0];
  }

  /**
   * Moves the wallet to the page's chain ({chainId, chainIdHex, network}) unless it is there already; a wallet that
   * does not know the chain or stays on another one is a WalletError of problem {@code wrong_network}.
   */
  async function switchChain(wallet, chain) {
    const wanted = chain.chainIdHex.toLowerCase();
    const current = String(await wallet.request({ method: 'eth_chainId' })).toLowerCase();
    if (current === wanted) {
      return;
    }
    try {
      await wallet.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: wanted }] });
    } catch (error) {
      if (error && error.code === 4902) {
        throw new WalletError('Your wallet does not know ' + chain.network + ' (chain id ' + chain.chainId
          + '). Add that network to your wallet, then try again.', 'wrong_network');
      }
      throw error;
    }
    const now = String(await wallet.request({ method: 'eth_chainId' })).toLowerCase();
    if (now !== wanted) {
      throw new WalletError('Your wallet is on another network. Switch it to ' + chain.network + ' and try again.',
        'wrong_network');
    }
  }

  /** Sends {to, data, value} from {@code from}; answers the transaction hash. */
  function send(wallet, from, transaction) {
    const request = { from, to: transaction.to, value: transaction.value || '0x0' };
    if (transaction.data) {
      request.data = transaction.data;
    }
    return wallet.request({ method: 'eth_sendTransaction', params: [request] });
  }

  /**
   * Waits until the transaction is in a block; answers its receipt. A reverted transaction is a WalletError of problem
   * {@code reverted}; after {@code timeoutMillis} (default 10 minutes) one of problem {@code timeout}.
   */
  async function waitForReceipt(wallet, hash, timeoutMillis) {
    const deadline = Date.now() + (timeoutMillis || 600000);
    while (Date.now() < deadline) {
      const receipt = await wallet.request({ method: 'eth_getTransactionReceipt', params: [hash] });
      if (receipt && receipt.blockNumber) {
        if (receipt.status !== undefined && BigInt(receipt.status) === 0n) {
          throw new WalletError('The transaction ' + shortHash(hash) + ' failed on chain; nothing was changed.',
            'reverted');
        }
        return receipt;
      }
      await new Promise((resolve) => window.setTimeout(resolve, RECEIPT_POLL_MILLIS));
    }
    throw new WalletError('The transaction ' + shortHash(hash) + ' is not in a block yet. Check your wallet.',
      'timeout');
  }

  /** eth_call at the latest block; answers the returned data. A revert is thrown with its data, as wallets do. */
  function call(wallet, from, transaction) {
    return wallet.request({ method: 'eth_call', params: [{ from, to: transaction.to, data: transaction.data }, 'latest'] });
  }

  /** The token's balance of {@code owner}, in base units (BigInt). */
  async function balanceOf(wallet, token, owner) {
    return BigInt(await call(wallet, owner, { to: token, data: BALANCE_OF + address(owner) }));
  }

  /** How much {@code spender} may pull from {@code owner} (BigInt). */
  async function allowance(wallet, token, owner, spender) {
    return BigInt(await call(wallet, owner, { to: token, data: ALLOWANCE + address(owner) + address(spender) }));
  }

  // ---- encoding and words ----

  /** A 32-byte ABI word: hex digits left-padded with zeros. */
  function word(hex) {
    return hex.toLowerCase().padStart(64, '0');
  }

  function address(value) {
    return word(value.slice(2));
  }

  /** {@code 0x1234…abcd}: a hash short enough for a sentence. */
  function shortHash(hash) {
    const text = String(hash);
    return text.length > 14 ? text.slice(0, 6) + '…' + text.slice(-4) : text;
  }

  /** The revert data inside a wallet's error, when it carries any (JSON-RPC puts it in different places). */
  function revertData(error) {
    const candidates = [error && error.data, error && error.data && error.data.data, error && error.error
      && error.error.data];
    for (const candidate of candidates) {
      if (typeof candidate === 'string' && /^0x[0-9a-fA-F]{8}/.test(candidate)) {
        return candidate.toLowerCase();
      }
    }
    const text = error && error.message ? String(error.message) : '';
    const found = text.match(/0x[0-9a-fA-F]{8,}/);
    return found ? found[0].toLowerCase() : null;
  }

  /**
   * The customer's words for a failed wallet request. {@code network} names the page's chain, {@code what} the thing
   * sent ("payment", "transaction").
   */
  function describe(error, network, what) {
    if (error instanceof WalletError) {
      return error.message;
    }
    switch (error && error.code) {
      case 4001: return 'You rejected the request in your wallet. Nothing was sent.';
      case 4100: return 'Your wallet did not allow this site to use the account. Connect it and try again.';
      case 4900:
      case 4901: return 'Your wallet is not connected to ' + network + '. Switch network and try again.';
      case -32002: return 'Your wallet already has a request open. Finish it in your wallet first.';
      default: return 'The wallet could not send the ' + (what || 'payment')
        + (error && error.message ? ': ' + error.message : '.');
    }
  }

  /** A stable name of what went wrong, for pages to style and tests to read. */
  function problem(error) {
    if (error instanceof WalletError) {
      return error.problem;
    }
    switch (error && error.code) {
      case 4001: return 'rejected';
      case 4100: return 'unauthorized';
      case 4900:
      case 4901: return 'wrong_network';
      case -32002: return 'busy';
      default: return 'wallet';
    }
  }

  return {
    WalletError, provider, onChange, connect, switchChain, send, waitForReceipt, call, balanceOf, allowance, word,
    shortHash, revertData, describe, problem,
  };
})();
