// cryptopay checkout: progressive enhancement of the server-rendered page (plain ES2020, no framework, no build).
// Served as one bundle after checkout-ui's wallet.js (cryptopayWallet) and live.js (cryptopayLive), which this page
// shares with the subscribe page. The server stays the only renderer: on a state change the live status fetches the
// page again and swaps <main>'s content. Hooks: #state[data-state], #payment[data-*], #deposit-address,
// #pay-with-wallet, #wallet-message, #countdown[data-expires-in], #continue[data-redirect-after], #unexpected-asset,
// #announcer (the one aria-live region).
'use strict';

(() => {
  const main = document.querySelector('main');
  const paymentId = main && main.dataset.paymentId;
  if (!paymentId) {
    return; // the "not found" page
  }
  const query = '?payment_id=' + encodeURIComponent(paymentId);
  const TRANSFER_SELECTOR = '0xa9059cbb'; // ERC-20 transfer(address,uint256)

  let deadline = null;
  let redirectTimer = null;

  /** What the page shows: the state, while detected the confirmations, and what arrived in another asset. */
  function stateKey() {
    const state = document.getElementById('state');
    const notice = document.getElementById('unexpected-asset');
    return state ? state.dataset.state + ':' + (state.dataset.confirmations || '') + ':'
      + (notice ? notice.textContent : '') : '';
  }

  function statusKey(status) {
    const confirmations = status.confirmations === undefined || status.confirmations === null ? '' : status.confirmations;
    return status.state + ':' + confirmations + ':' + (status.unexpected_asset_notice || '');
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
      window.setTimeout(() => live.refresh(), 1500); // the server decides whether the link expired
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

  // ---- paying with the browser wallet (found by cryptopayWallet: EIP-6963, else window.ethereum) ----

  function showWalletButton() {
    const button = document.getElementById('pay-with-wallet');
    const payment = document.getElementById('payment');
    if (button && payment) {
      button.hidden = !(cryptopayWallet.provider() && payment.dataset.depositAddress);
    }
  }

  cryptopayWallet.onChange(showWalletButton);

  document.addEventListener('click', (event) => {
    const button = event.target.closest('#pay-with-wallet');
    if (button) {
      payWithWallet(button);
    }
  });

  async function payWithWallet(button) {
    const payment = document.getElementById('payment').dataset;
    const wallet = cryptopayWallet.provider();
    if (!wallet) {
      showMessage('No browser wallet found. Scan the QR code with a wallet app, or copy the address.', 'error');
      return;
    }
    button.disabled = true;
    showMessage('Confirm the request in your wallet.', 'info');
    try {
      const from = await cryptopayWallet.connect(wallet);
      await cryptopayWallet.switchChain(wallet, payment);
      const amount = BigInt(payment.amountBaseUnits);
      const transaction = payment.tokenContract
        ? { to: payment.tokenContract, value: '0x0',
            data: TRANSFER_SELECTOR + cryptopayWallet.word(payment.depositAddress.slice(2))
              + cryptopayWallet.word(amount.toString(16)) }
        : { to: payment.depositAddress, value: '0x' + amount.toString(16) };
      const hash = await cryptopayWallet.send(wallet, from, transaction);
      showMessage('Payment sent (transaction ' + cryptopayWallet.shortHash(hash)
        + '). This page updates when it is seen on chain.', 'success', hash);
    } catch (error) {
      showMessage(cryptopayWallet.describe(error, payment.network, 'payment'), 'error');
    } finally {
      button.disabled = false;
    }
  }

  /** Shows a message under the wallet button; {@code hash}, when given, is kept whole in data-transaction. */
  function showMessage(text, kind, hash) {
    const message = document.getElementById('wallet-message');
    if (!message) {
      return;
    }
    message.textContent = text;
    message.className = 'message ' + kind;
    if (hash) {
      message.dataset.transaction = hash;
      message.title = hash;
    } else {
      delete message.dataset.transaction;
      message.removeAttribute('title');
    }
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
  const live = cryptopayLive.start({ route: 'payment_link', query, shownKey: stateKey, statusKey, onSwap: enhance });
})();
