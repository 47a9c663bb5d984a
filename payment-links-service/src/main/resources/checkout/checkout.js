// cryptopay checkout: progressive enhancement of the server-rendered page (plain ES2020, no framework, no build).
// The server stays the only renderer: on a state change this script fetches the page again and swaps <main>'s
// content. Hooks: #state[data-state], #payment[data-*], #deposit-address, #pay-with-wallet, #wallet-message,
// #countdown[data-expires-in], #continue[data-redirect-after], #announcer (the one aria-live region).
'use strict';

(() => {
  const main = document.querySelector('main');
  const paymentId = main && main.dataset.paymentId;
  if (!paymentId) {
    return; // the "not found" page
  }
  const announcer = document.getElementById('announcer');
  const query = '?payment_id=' + encodeURIComponent(paymentId);
  const eventsUrl = new URL('payment_link/events' + query, document.baseURI).href;
  const statusUrl = new URL('payment_link/status' + query, document.baseURI).href;
  const POLL_MILLIS = 5000;
  const TRANSFER_SELECTOR = '0xa9059cbb'; // ERC-20 transfer(address,uint256)

  let shownKey = stateKey();
  let source = null;
  let pollTimer = null;
  let eventErrors = 0;
  let refreshing = false;
  let refreshAgain = false;
  let deadline = null;
  let redirectTimer = null;

  // ---- state of the rendered page ----

  function stateElement() {
    return document.getElementById('state');
  }

  function isTerminal() {
    const state = stateElement();
    return !state || state.dataset.terminal === 'true';
  }

  /** What the page shows: the state and, while detected, the confirmations. */
  function stateKey() {
    const state = stateElement();
    return state ? state.dataset.state + ':' + (state.dataset.confirmations || '') : '';
  }

  function statusKey(status) {
    const confirmations = status.confirmations === undefined || status.confirmations === null ? '' : status.confirmations;
    return status.state + ':' + confirmations;
  }

  // ---- live status: EventSource, falling back to polling the status route ----

  function watch() {
    if (isTerminal()) {
      return;
    }
    if (!('EventSource' in window)) {
      startPolling();
      return;
    }
    source = new EventSource(eventsUrl);
    source.addEventListener('open', () => { eventErrors = 0; });
    source.addEventListener('status', (event) => {
      eventErrors = 0;
      onStatus(JSON.parse(event.data));
    });
    source.addEventListener('error', () => {
      eventErrors += 1;
      // CLOSED: the browser gave up (e.g. 503 when the server has too many streams). Reconnects that keep failing
      // are given up on too.
      if (source.readyState === EventSource.CLOSED || eventErrors >= 3) {
        source.close();
        source = null;
        startPolling();
      }
    });
  }

  function startPolling() {
    if (pollTimer === null && !isTerminal()) {
      pollTimer = window.setInterval(poll, POLL_MILLIS);
    }
  }

  async function poll() {
    try {
      const response = await fetch(statusUrl, { cache: 'no-store', headers: { Accept: 'application/json' } });
      if (response.ok) {
        onStatus(await response.json());
      }
    } catch (ignored) {
      // offline for a moment: the next poll tries again
    }
  }

  function stopWatching() {
    if (source !== null) {
      source.close();
      source = null;
    }
    if (pollTimer !== null) {
      window.clearInterval(pollTimer);
      pollTimer = null;
    }
  }

  function onStatus(status) {
    if (statusKey(status) !== shownKey) {
      refresh();
    }
    if (status.terminal) {
      stopWatching();
    }
  }

  /** Fetches the page again and replaces <main>'s content with the server's new rendering. */
  async function refresh() {
    if (refreshing) {
      refreshAgain = true; // a change arrived while fetching: fetch once more when this one is done
      return;
    }
    refreshing = true;
    refreshAgain = false;
    try {
      const response = await fetch(window.location.href, { cache: 'no-store', headers: { Accept: 'text/html' } });
      if (!response.ok) {
        return;
      }
      const html = new DOMParser().parseFromString(await response.text(), 'text/html');
      const next = html.querySelector('main');
      if (!next) {
        return;
      }
      const before = stateElement() ? stateElement().dataset.state : null;
      main.replaceChildren(...Array.from(next.childNodes, (node) => document.importNode(node, true)));
      shownKey = stateKey();
      enhance();
      const state = stateElement();
      if (state && state.dataset.state !== before) {
        const title = document.getElementById('state-title');
        announcer.textContent = title ? title.textContent : '';
      }
      if (isTerminal()) {
        stopWatching();
      }
    } catch (ignored) {
      // keep what is shown; the next status tries again
    } finally {
      refreshing = false;
      if (refreshAgain) {
        refresh();
      }
    }
  }

  // ---- copy buttons ----

  document.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-copy]');
    if (button) {
      copy(button);
    }
  });

  async function copy(button) {
    const label = button.dataset.label || button.textContent;
    button.dataset.label = label;
    try {
      await navigator.clipboard.writeText(button.dataset.copy);
      button.textContent = 'Copied';
    } catch (failed) {
      button.textContent = 'Copy failed: select the text';
    }
    window.setTimeout(() => { button.textContent = label; }, 2000);
  }

  // ---- countdown to expires_at (the server's remaining seconds, counted on this device's monotonic clock) ----

  function startCountdown() {
    const countdown = document.getElementById('countdown');
    deadline = countdown ? performance.now() + Number(countdown.dataset.expiresIn) * 1000 : null;
    tick();
  }

  function tick() {
    const countdown = document.getElementById('countdown');
    if (!countdown || deadline === null) {
      return;
    }
    const left = Math.max(0, Math.round((deadline - performance.now()) / 1000));
    countdown.textContent = formatDuration(left);
    if (left === 0) {
      deadline = null;
      window.setTimeout(refresh, 1500); // the server decides whether the link expired
    }
  }

  function formatDuration(seconds) {
    const pad = (n) => String(n).padStart(2, '0');
    const days = Math.floor(seconds / 86400);
    const clock = pad(Math.floor((seconds % 86400) / 3600)) + ':' + pad(Math.floor((seconds % 3600) / 60)) + ':'
      + pad(seconds % 60);
    return days > 0 ? days + ' d ' + clock : clock;
  }

  // ---- continue to the merchant after a payment ----

  function scheduleRedirect() {
    const link = document.getElementById('continue');
    const seconds = link ? Number(link.dataset.redirectAfter) : 0;
    if (redirectTimer === null && seconds > 0) {
      redirectTimer = window.setTimeout(() => window.location.assign(link.href), seconds * 1000);
    }
  }

  // ---- browser wallet: EIP-6963 discovery, falling back to window.ethereum (EIP-1193) ----

  const announced = [];
  window.addEventListener('eip6963:announceProvider', (event) => {
    const detail = event.detail;
    if (detail && detail.provider && !announced.some((known) => known.info.uuid === detail.info.uuid)) {
      announced.push(detail);
      showWalletButton();
    }
  });
  window.dispatchEvent(new Event('eip6963:requestProvider'));
  window.addEventListener('ethereum#initialized', showWalletButton, { once: true });

  function walletProvider() {
    if (announced.length > 0) {
      return announced[0].provider;
    }
    return window.ethereum || null;
  }

  function showWalletButton() {
    const button = document.getElementById('pay-with-wallet');
    const payment = document.getElementById('payment');
    if (button && payment) {
      button.hidden = !(walletProvider() && payment.dataset.depositAddress);
    }
  }

  document.addEventListener('click', (event) => {
    const button = event.target.closest('#pay-with-wallet');
    if (button) {
      payWithWallet(button);
    }
  });

  class WalletError extends Error {}

  async function payWithWallet(button) {
    const payment = document.getElementById('payment').dataset;
    const provider = walletProvider();
    if (!provider) {
      showMessage('No browser wallet found. Scan the QR code with a wallet app, or copy the address.', 'error');
      return;
    }
    button.disabled = true;
    showMessage('Confirm the request in your wallet.', 'info');
    try {
      const accounts = await provider.request({ method: 'eth_requestAccounts' });
      if (!accounts || accounts.length === 0) {
        throw new WalletError('Your wallet shared no account. Unlock it and try again.');
      }
      await switchChain(provider, payment);
      const amount = BigInt(payment.amountBaseUnits);
      const transaction = payment.tokenContract
        ? { from: accounts[0], to: payment.tokenContract, value: '0x0',
            data: TRANSFER_SELECTOR + word(payment.depositAddress.slice(2)) + word(amount.toString(16)) }
        : { from: accounts[0], to: payment.depositAddress, value: '0x' + amount.toString(16) };
      const hash = await provider.request({ method: 'eth_sendTransaction', params: [transaction] });
      showMessage('Payment sent (transaction ' + hash + '). This page updates when it is seen on chain.', 'success');
    } catch (error) {
      showMessage(describe(error, payment), 'error');
    } finally {
      button.disabled = false;
    }
  }

  async function switchChain(provider, payment) {
    const wanted = payment.chainIdHex.toLowerCase();
    const current = String(await provider.request({ method: 'eth_chainId' })).toLowerCase();
    if (current === wanted) {
      return;
    }
    try {
      await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: wanted }] });
    } catch (error) {
      if (error && error.code === 4902) {
        throw new WalletError('Your wallet does not know ' + payment.network + ' (chain id ' + payment.chainId
          + '). Add that network to your wallet, then try again.');
      }
      throw error;
    }
    const now = String(await provider.request({ method: 'eth_chainId' })).toLowerCase();
    if (now !== wanted) {
      throw new WalletError('Your wallet is on another network. Switch it to ' + payment.network + ' and try again.');
    }
  }

  /** A 32-byte ABI word: hex digits left-padded with zeros. */
  function word(hex) {
    return hex.toLowerCase().padStart(64, '0');
  }

  function describe(error, payment) {
    if (error instanceof WalletError) {
      return error.message;
    }
    switch (error && error.code) {
      case 4001: return 'You rejected the request in your wallet. Nothing was sent.';
      case 4100: return 'Your wallet did not allow this site to use the account. Connect it and try again.';
      case 4900:
      case 4901: return 'Your wallet is not connected to ' + payment.network + '. Switch network and try again.';
      case -32002: return 'Your wallet already has a request open. Finish it in your wallet first.';
      default: return 'The wallet could not send the payment' + (error && error.message ? ': ' + error.message : '.');
    }
  }

  function showMessage(text, kind) {
    const message = document.getElementById('wallet-message');
    if (!message) {
      return;
    }
    message.textContent = text;
    message.className = 'message ' + kind;
    message.hidden = false;
    if (kind === 'error') {
      message.focus();
    }
  }

  // ---- wiring ----

  /** Makes the rendered <main> interactive (again, after each swap). */
  function enhance() {
    document.querySelectorAll('button[data-copy]').forEach((button) => {
      button.hidden = !navigator.clipboard;
    });
    showWalletButton();
    startCountdown();
    scheduleRedirect();
  }

  enhance();
  window.setInterval(tick, 1000);
  watch();
})();
