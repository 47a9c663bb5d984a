// cryptopay customer pages: live status, shared by the payment checkout and the subscribe page (plain ES2020).
//
// The server stays the only renderer. cryptopayLive.start listens to the page's Server-Sent Events (falling back to
// polling its status route when the browser has no EventSource, the server refuses the stream or it keeps failing);
// when a status differs from what the page shows, it fetches the page again and swaps <main>'s content. Conventions
// both pages follow: one <main> with #state[data-state][data-terminal] and #state-title in it, one aria-live
// #announcer outside it, which says the new title whenever the state changes, and the routes <route>/events and
// <route>/status beside the page, with the page's own query.
'use strict';

const cryptopayLive = (() => {
  const POLL_MILLIS = 5000;

  /**
   * @param options.route       the page's routes, relative to the page: <route>/events (Server-Sent Events named
   *                            "status", JSON data) and <route>/status (polled as fallback)
   * @param options.query       the page's query for both, such as '?payment_id=…'
   * @param options.shownKey    () => what the rendered page shows, as a string
   * @param options.statusKey   (status) => the same for a status of the routes
   * @param options.onSwap      () => called after each swap (make the new content interactive)
   * @return {refresh, stop}: refresh fetches and swaps now; stop ends listening
   */
  function start(options) {
    const main = document.querySelector('main');
    const announcer = document.getElementById('announcer');
    const eventsUrl = new URL(options.route + '/events' + options.query, document.baseURI).href;
    const statusUrl = new URL(options.route + '/status' + options.query, document.baseURI).href;
    let shownKey = options.shownKey();
    let source = null;
    let pollTimer = null;
    let eventErrors = 0;
    let refreshing = false;
    let refreshAgain = false;

    function stateElement() {
      return document.getElementById('state');
    }

    function isTerminal() {
      const state = stateElement();
      return !state || state.dataset.terminal === 'true';
    }

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

    function stop() {
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
      if (options.statusKey(status) !== shownKey) {
        refresh();
      }
      if (status.terminal) {
        stop();
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
        shownKey = options.shownKey();
        options.onSwap();
        const state = stateElement();
        if (state && state.dataset.state !== before) {
          const title = document.getElementById('state-title');
          announcer.textContent = title ? title.textContent : '';
        }
        if (isTerminal()) {
          stop();
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

    watch();
    return { refresh, stop };
  }

  return { start };
})();
