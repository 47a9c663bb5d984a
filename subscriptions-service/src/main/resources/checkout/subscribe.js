// cryptopay subscribe page: progressive enhancement of the server-rendered page (plain ES2020, no framework, no
// build). Served as one bundle after checkout-ui's wallet.js (cryptopayWallet) and live.js (cryptopayLive), which the
// payment checkout uses too. The server stays the only renderer: on a visible change the live status fetches the page
// again and swaps <main>'s content.
//
// Subscribing: connect the wallet and switch its chain, fetch the page's kit (exactly what GET
// /public/subscriber/prepare answers), check the balance, send the kit's approve, wait for it, check the allowance,
// simulate and send the kit's subscribe, wait for it, then POST the enrolment with subscribe_hash. A subscribe
// transaction sent but not yet reported is kept in localStorage, so a page closed in between reports it when opened
// again. Cancelling: the contract's cancel(chain_subscription_id) from the wallet that subscribed.
//
// Hooks: #enrol[data-*], #steps li[data-step-state], #subscribe-with-wallet, #wallet-message[data-problem],
// #subscription[data-*], #cancel-subscription, #cancel-message[data-problem], #page-message, #by-hand.
'use strict';

(() => {
  const main = document.querySelector('main');
  const subscriberId = main && main.dataset.subscriberId;
  if (!subscriberId) {
    return; // the "not found" and "incomplete link" pages
  }
  const query = '?subscriber_id=' + encodeURIComponent(subscriberId);
  const STORED = 'cryptopay.subscribe.' + subscriberId;
  const CANCEL_SELECTOR = '0xc4d252f5'; // cancel(bytes32)
  const REVERTS = {
    '0x64299d47': ['insufficient_funds', 'The first payment could not be taken: your wallet\'s balance or allowance '
      + 'is too low. Nothing was charged.'], // FirstPaymentFailed()
    '0x09520e5a': ['plan_revoked', 'The merchant revoked this plan on chain: it can no longer be subscribed to.'],
    '0x65f1145e': ['invalid_signature', 'The subscription contract refused the merchant\'s signature of this plan. '
      + 'Do not subscribe; contact the merchant.'], // InvalidMerchantSignature()
    '0x80cb55e2': ['not_active', 'This subscription is no longer active on chain: it is cancelled already.'],
    '0x3d693ada': ['wrong_account', 'Only the wallet that subscribed can cancel this subscription.'],
  };
  const REFUSALS = {
    already_enrolled: 'This invitation has already been used: the subscription it made is shown here.',
    subscriber_cancelled: 'This invitation was withdrawn by the merchant.',
    plan_deprecated: 'This plan no longer accepts new subscribers.',
    subscribe_deadline_passed: 'This invitation expired. Ask the merchant for a new one.',
    network_unavailable: 'Subscriptions on this network are not available right now.',
    insufficient_approval: 'The allowance is too small for one payment. Approve at least one payment\'s amount.',
  };
  const { WalletError } = cryptopayWallet;

  let busy = false;
  let notice = null; // the last wallet message, shown again after the page is swapped

  /**
   * What the page shows: the state, where the subscription stands on chain (a cancelled one may still be ended there),
   * the paid periods, the payments listed and what is owed.
   */
  function stateKey() {
    const state = document.getElementById('state');
    return state ? [state.dataset.state, state.dataset.chainStatus, state.dataset.paidPeriods, state.dataset.payments,
      state.dataset.owed].join(':') : '';
  }

  function statusKey(status) {
    return [status.state, status.chain_status || '', status.paid_periods, status.payments, status.owed].join(':');
  }

  // ---- messages and steps ----

  /**
   * Shows a message in the first of {@code places} the page has now ({@code #page-message} otherwise). It stays across
   * swaps of the page while the state is the same; a sticky one (a refusal the new state explains) one change longer.
   */
  function show(places, text, kind, problem, hash, sticky) {
    notice = { places, text, kind, problem, hash, sticky, state: currentState() };
    render();
  }

  function currentState() {
    const state = document.getElementById('state');
    return state ? state.dataset.state : null;
  }

  function render() {
    if (notice && notice.state !== currentState()) {
      notice = notice.sticky ? Object.assign(notice, { sticky: false, state: currentState() }) : null;
    }
    if (!notice) {
      return;
    }
    const element = notice.places.map((id) => document.getElementById(id)).find(Boolean)
      || document.getElementById('page-message');
    if (!element) {
      return;
    }
    element.textContent = notice.text;
    element.className = 'message ' + notice.kind;
    element.dataset.problem = notice.problem || '';
    if (notice.hash) {
      element.dataset.transaction = notice.hash;
      element.title = notice.hash;
    }
    element.hidden = false;
    if (notice.kind === 'error') {
      element.focus();
    }
  }

  function step(id, state) {
    const item = document.getElementById(id);
    if (item) {
      item.dataset.stepState = state;
    }
  }

  function failActiveStep() {
    document.querySelectorAll('#steps li[data-step-state="active"]').forEach((item) => {
      item.dataset.stepState = 'failed';
    });
  }

  /** Token base units in token units, without trailing zeros. */
  function units(baseUnits, decimals) {
    const digits = baseUnits.toString().padStart(decimals + 1, '0');
    const whole = digits.slice(0, digits.length - decimals);
    const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
    return fraction ? whole + '.' + fraction : whole;
  }

  // ---- the page's own routes ----

  class Refusal extends Error {
    constructor(problem) {
      super(REFUSALS[problem.code] || problem.message || 'The request was refused.');
      this.problem = problem.code || 'refused';
    }
  }

  async function json(response) {
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      throw new Refusal(body);
    }
    return body;
  }

  async function kit(wallet) {
    return json(await fetch(new URL('subscribe/prepare' + query + '&wallet_address=' + encodeURIComponent(wallet),
      document.baseURI).href, { cache: 'no-store', headers: { Accept: 'application/json' } }));
  }

  async function report(enrolment) {
    return json(await fetch(new URL('subscribe/enrol', document.baseURI).href, {
      method: 'POST',
      cache: 'no-store',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(enrolment),
    }));
  }

  // ---- subscribing ----

  async function subscribe(button) {
    const enrol = document.getElementById('enrol').dataset;
    const places = ['wallet-message'];
    const wallet = cryptopayWallet.provider();
    if (!wallet) {
      show(places, 'No browser wallet found. Use the by-hand instructions below with any wallet.', 'error',
        'no_wallet');
      return;
    }
    busy = true;
    button.disabled = true;
    const decimals = Number(enrol.decimals);
    const perPeriod = BigInt(enrol.amount);
    try {
      step('step-connect', 'active');
      show(places, 'Confirm the request in your wallet.', 'info');
      const from = await cryptopayWallet.connect(wallet);
      await cryptopayWallet.switchChain(wallet, enrol);
      const prepared = await kit(from);
      const transactions = prepared.transactions;
      step('step-connect', 'done');
      if (BigInt(enrol.trialPeriod) === 0n) {
        const balance = await cryptopayWallet.balanceOf(wallet, enrol.token, from);
        if (balance < perPeriod) {
          throw new WalletError('Your wallet holds ' + units(balance, decimals) + ' ' + enrol.symbol + ' on '
            + enrol.network + '; the first payment needs ' + units(perPeriod, decimals) + ' ' + enrol.symbol
            + '. Add funds to this wallet, then try again. Nothing was sent.', 'insufficient_balance');
        }
      }
      step('step-approve', 'active');
      // Every transaction but the last is an approval: approve(0) first when the wallet already allowed this
      // contract something (tokens such as USDT refuse to change one non-zero allowance to another), then the
      // current allowance plus the periods.
      const approvals = transactions.slice(0, -1);
      const subscribeTransaction = transactions[transactions.length - 1];
      const count = transactions.length;
      let approveHash = null;
      for (let i = 0; i < approvals.length; i += 1) {
        show(places, 'Approve the allowance in your wallet (transaction ' + (i + 1) + ' of ' + count + ').', 'info');
        approveHash = await cryptopayWallet.send(wallet, from, approvals[i]);
        show(places, 'Allowance sent (transaction ' + cryptopayWallet.shortHash(approveHash)
          + '). Waiting for it to be confirmed…', 'info', null, approveHash);
        await cryptopayWallet.waitForReceipt(wallet, approveHash);
      }
      const allowed = await cryptopayWallet.allowance(wallet, enrol.token, from, enrol.contract);
      if (allowed < perPeriod) {
        throw new WalletError('Your wallet allowed the subscription contract only ' + units(allowed, decimals) + ' '
          + enrol.symbol + '; each payment needs ' + units(perPeriod, decimals) + ' ' + enrol.symbol
          + '. Approve at least that much, then try again.', 'insufficient_allowance');
      }
      step('step-approve', 'done');
      step('step-subscribe', 'active');
      await simulate(wallet, from, subscribeTransaction);
      show(places, 'Confirm the subscription in your wallet (transaction ' + count + ' of ' + count + ').', 'info');
      const subscribeHash = await cryptopayWallet.send(wallet, from, subscribeTransaction);
      const enrolment = { subscriber_id: subscriberId, wallet_address: from, subscribe_hash: subscribeHash,
        approval_hash: approveHash, amount_approved: prepared.approval.amount };
      remember(enrolment);
      show(places, 'Subscription sent (transaction ' + cryptopayWallet.shortHash(subscribeHash)
        + '). Waiting for it to be confirmed…', 'info', null, subscribeHash);
      await cryptopayWallet.waitForReceipt(wallet, subscribeHash);
      step('step-subscribe', 'done');
      step('step-confirm', 'active');
      await report(enrolment);
      forget();
      show(places, 'Subscribed (transaction ' + cryptopayWallet.shortHash(subscribeHash) + '). This page shows it '
        + 'active once ' + enrol.network + ' confirms it.', 'success', null, subscribeHash, true);
      live.refresh();
    } catch (error) {
      if (error.problem === 'reverted') {
        forget();
      }
      failed(places, error, enrol.network, 'transaction');
    } finally {
      busy = false;
      button.disabled = false;
    }
  }

  /** eth_call of a transaction before sending it, so a revert is explained before the wallet asks anything. */
  async function simulate(wallet, from, transaction) {
    try {
      await cryptopayWallet.call(wallet, from, transaction);
    } catch (error) {
      const data = cryptopayWallet.revertData(error);
      const known = data && REVERTS[data.slice(0, 10)];
      if (known) {
        throw new WalletError(known[1], known[0]);
      }
      throw error;
    }
  }

  function failed(places, error, network, what) {
    failActiveStep();
    if (error instanceof Refusal) {
      show(places, error.message, 'error', error.problem, null, true);
      live.refresh(); // the server shows what the refusal means (used, expired, deprecated…)
      return;
    }
    show(places, cryptopayWallet.describe(error, network, what), 'error', cryptopayWallet.problem(error));
  }

  // A subscribe transaction sent from this browser but never reported (the page was closed): report it now.
  function remember(enrolment) {
    try {
      window.localStorage.setItem(STORED, JSON.stringify(enrolment));
    } catch (ignored) {
      // storage off: the enrolment is reported from this page only
    }
  }

  function forget() {
    try {
      window.localStorage.removeItem(STORED);
    } catch (ignored) {
      // storage off
    }
  }

  async function resume() {
    let stored = null;
    try {
      stored = JSON.parse(window.localStorage.getItem(STORED));
    } catch (ignored) {
      return;
    }
    if (!stored || !document.getElementById('enrol')) {
      return;
    }
    try {
      show(['wallet-message'], 'Reporting the subscription you sent earlier ('
        + cryptopayWallet.shortHash(stored.subscribe_hash) + ')…', 'info', null, stored.subscribe_hash);
      await report(stored);
      forget();
      live.refresh();
    } catch (error) {
      forget();
      failed(['wallet-message'], error, '', 'transaction');
    }
  }

  // ---- cancelling ----

  async function cancel(button) {
    const subscription = document.getElementById('subscription').dataset;
    const places = ['cancel-message'];
    const wallet = cryptopayWallet.provider();
    if (!wallet) {
      show(places, 'No browser wallet found. Use the by-hand instructions below.', 'error', 'no_wallet');
      return;
    }
    busy = true;
    button.disabled = true;
    try {
      show(places, 'Confirm the cancellation in your wallet.', 'info');
      const from = await cryptopayWallet.connect(wallet);
      if (from.toLowerCase() !== subscription.wallet.toLowerCase()) {
        throw new WalletError('Connect the wallet ' + subscription.wallet + ' that subscribed: only it can cancel.',
          'wrong_account');
      }
      await cryptopayWallet.switchChain(wallet, subscription);
      const transaction = { to: subscription.contract, value: '0x0',
        data: CANCEL_SELECTOR + subscription.chainSubscriptionId.slice(2) };
      await simulate(wallet, from, transaction);
      const hash = await cryptopayWallet.send(wallet, from, transaction);
      show(places, 'Cancellation sent (transaction ' + cryptopayWallet.shortHash(hash) + '). This page shows the '
        + 'subscription cancelled once ' + subscription.network + ' confirms it.', 'success', null, hash);
      await cryptopayWallet.waitForReceipt(wallet, hash);
    } catch (error) {
      failed(places, error, subscription.network, 'cancellation');
    } finally {
      busy = false;
      button.disabled = false;
    }
  }

  document.addEventListener('click', (event) => {
    const target = event.target;
    const subscribeButton = target.closest('#subscribe-with-wallet');
    if (subscribeButton && !busy) {
      subscribe(subscribeButton);
    }
    const cancelButton = target.closest('#cancel-subscription');
    if (cancelButton && !busy) {
      cancel(cancelButton);
    }
  });

  // ---- wiring ----

  /** Makes the rendered <main> interactive (again, after each swap). */
  function enhance() {
    const wallet = cryptopayWallet.provider();
    ['subscribe-with-wallet', 'cancel-subscription'].forEach((id) => {
      const button = document.getElementById(id);
      if (button) {
        button.hidden = !wallet;
      }
    });
    const byHand = document.getElementById('by-hand');
    if (byHand && wallet && !byHand.querySelector('#form-error')) {
      byHand.open = false; // a wallet is here: the by-hand instructions stay one click away
    }
    render();
  }

  cryptopayWallet.onChange(enhance);
  enhance();
  const live = cryptopayLive.start({ route: 'subscribe', query, shownKey: stateKey, statusKey, onSwap: enhance });
  resume();
})();
