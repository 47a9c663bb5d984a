// The merchant's browser wallet, which signs a subscription plan's terms (EIP-712) and sends the transactions the API
// answers (a stopped subscription's cancel). Found as the customers' pages find
// it (checkout-ui's wallet.js): EIP-6963 announcements first, else the EIP-1193 window.ethereum. The wallet is an
// object the browser extension injects into the page; the Content-Security-Policy's connect-src 'self' is untouched.
// Every failure is a WalletError in the merchant's words with a stable problem name (data-problem for tests).

/** A failure worded for the merchant; problem: no_wallet, rejected, unauthorized, wrong_network, wrong_account, busy,
 * no_account or wallet. */
export class WalletError extends Error {
  constructor(message, problem = "wallet") {
    super(message);
    this.problem = problem;
  }
}

const announced = [];

window.addEventListener("eip6963:announceProvider", (event) => {
  const detail = event.detail;
  if (detail?.provider && !announced.some((known) => known.info?.uuid === detail.info?.uuid)) {
    announced.push(detail);
  }
});
window.dispatchEvent(new Event("eip6963:requestProvider"));

/** The wallet to use: the first one announced, else window.ethereum, else null. */
export function provider() {
  return announced[0]?.provider ?? window.ethereum ?? null;
}

/** The wallet's name when it announced one (EIP-6963), for messages. */
export function walletName() {
  return announced[0]?.info?.name ?? null;
}

/** The wallet, or a WalletError of problem no_wallet. */
export function requireWallet() {
  const wallet = provider();
  if (!wallet) {
    throw new WalletError("No browser wallet was found. Install or unlock a wallet extension (such as MetaMask) in "
      + "this browser, reload the page and try again.", "no_wallet");
  }
  return wallet;
}

/** Asks the wallet for its accounts; answers the first one. */
export async function connect(wallet) {
  const accounts = await request(wallet, "eth_requestAccounts");
  if (!Array.isArray(accounts) || accounts.length === 0) {
    throw new WalletError("Your wallet shared no account. Unlock it and try again.", "no_account");
  }
  return accounts[0];
}

/** Fails with problem wrong_account unless the wallet still has account selected (it may change between requests). */
export async function checkAccount(wallet, account) {
  const accounts = await request(wallet, "eth_accounts");
  if (!Array.isArray(accounts) || !accounts.some((one) => sameAddress(one, account))) {
    throw new WalletError(`Your wallet no longer offers ${account}: select that account in the wallet, or start `
      + "again to sign with the account selected now.", "wrong_account");
  }
}

/**
 * Moves the wallet to chainId (a number) unless it is there already; a wallet that does not know the chain, or stays
 * on another one, is a WalletError of problem wrong_network.
 */
export async function switchChain(wallet, chainId) {
  const wanted = `0x${Number(chainId).toString(16)}`;
  const onChain = async () => BigInt(await request(wallet, "eth_chainId")) === BigInt(chainId);
  if (await onChain()) {
    return;
  }
  try {
    await request(wallet, "wallet_switchEthereumChain", [{ chainId: wanted }]);
  } catch (error) {
    if (error?.code === 4902) {
      throw new WalletError(`Your wallet does not know the plan's network (chain id ${chainId}). Add that network `
        + "to your wallet, then try again.", "wrong_network");
    }
    throw error;
  }
  if (!(await onChain())) {
    throw new WalletError(`Your wallet is on another network. Switch it to chain id ${chainId} and try again.`,
      "wrong_network");
  }
}

/** eth_signTypedData_v4 of typedData (an object) by account; answers the 65-byte signature as 0x-hex. */
export function signTypedData(wallet, account, typedData) {
  return request(wallet, "eth_signTypedData_v4", [account, JSON.stringify(typedData)]);
}

/** eth_sendTransaction of an API-answered {to, data, value} from account; answers the transaction hash. */
export function sendTransaction(wallet, account, transaction) {
  return request(wallet, "eth_sendTransaction", [{ from: account, to: transaction.to, data: transaction.data,
    value: transaction.value }]);
}

function request(wallet, method, params) {
  return wallet.request(params === undefined ? { method } : { method, params });
}

function sameAddress(a, b) {
  return String(a).toLowerCase() === String(b).toLowerCase();
}

/**
 * The merchant's words for a failed wallet request; declined: what declining meant (default: for a plan's signature).
 */
export function describe(error, declined = "Nothing was signed and no plan was made.") {
  if (error instanceof WalletError) {
    return error.message;
  }
  switch (error?.code) {
    case 4001: return `You declined the request in your wallet. ${declined}`;
    case 4100: return "Your wallet did not allow this page to use the account. Connect it and try again.";
    case 4900:
    case 4901: return "Your wallet is not connected to the plan's network. Switch network and try again.";
    case -32002: return "Your wallet already has a request open. Finish it in your wallet first.";
    default: return `The wallet could not sign${error?.message ? `: ${error.message}` : "."}`;
  }
}

/** A stable name of what went wrong. */
export function problem(error) {
  if (error instanceof WalletError) {
    return error.problem;
  }
  switch (error?.code) {
    case 4001: return "rejected";
    case 4100: return "unauthorized";
    case 4900:
    case 4901: return "wrong_network";
    case -32002: return "busy";
    default: return "wallet";
  }
}
