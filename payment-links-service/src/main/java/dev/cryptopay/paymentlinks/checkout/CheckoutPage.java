package dev.cryptopay.paymentlinks.checkout;

import dev.cryptopay.checkoutui.Html;
import dev.cryptopay.checkoutui.PageShell;
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import org.springframework.stereotype.Component;

/**
 * Renders the checkout page into checkout-ui's {@link PageShell} (the subscribe page's too). Every text from the link
 * is HTML-escaped; URLs the merchant gave are used only when they are http(s). The markup has no inline script or
 * style (the Content-Security-Policy forbids both): behaviour comes from {@code checkout.js}, looks from
 * {@code checkout.css}, and the page works without either.
 *
 * <p>Stable hooks for scripts and browser tests: {@code #state[data-state]}, {@code #state-title},
 * {@code #confirmations}, {@code #payment} (with {@code data-chain-id}, {@code data-chain-id-hex},
 * {@code data-deposit-address}, {@code data-token-contract}, {@code data-amount-base-units}),
 * {@code #deposit-address}, {@code #amount}, {@code #copy-address}, {@code #copy-amount}, {@code #qr-code},
 * {@code #payment-uri}, {@code #pay-with-wallet}, {@code #wallet-message}, {@code #countdown[data-expires-in]},
 * {@code #continue}, {@code #cancel-link}, the paid link's {@code #receipt} (each transaction a {@code code.tx-hash},
 * with an {@code a.explorer} link where the network has one), {@code #unexpected-asset} (what arrived in another asset)
 * and the live region {@code #announcer}.
 */
@Component
class CheckoutPage {

    /** Seconds before a page without JavaScript reloads itself while the state can still change. */
    static final int REFRESH_SECONDS = 10;
    /** Seconds a paid page shows before it continues to the merchant's success_url. */
    static final int REDIRECT_SECONDS = 5;

    private final PageShell shell;

    CheckoutPage(CheckoutAssets assets) {
        this.shell = new PageShell(
                "checkout",
                assets.stylesheetPath(),
                assets.scriptPath(),
                "Paid straight to the merchant's own wallet.",
                false);
    }

    /** The whole page for one link. */
    String render(CheckoutView view) {
        String head = "";
        String success = httpUrl(view.successUrl());
        if (!view.state().terminal()) {
            head = "<noscript><meta http-equiv=\"refresh\" content=\"" + REFRESH_SECONDS + "\"></noscript>";
        } else if (view.state() == CheckoutState.PAID && success != null) {
            head = "<noscript><meta http-equiv=\"refresh\" content=\"" + REDIRECT_SECONDS + ";url=" + e(success)
                    + "\"></noscript>";
        }
        String main =
                summary(view) + state(view) + (view.showsPaymentInstructions() ? payment(view) : "") + returnLink(view);
        return shell.document(
                view.state().title() + " · " + view.paymentName(),
                head,
                " data-payment-id=\"" + view.paymentId() + "\"",
                main);
    }

    /** The page for an unknown or malformed payment id (answered with 404). */
    String notFound() {
        return shell.problem(
                "not_found",
                "Payment not found",
                "This payment link does not exist. Check the link you were given, or contact the merchant.");
    }

    private static String summary(CheckoutView view) {
        StringBuilder html = new StringBuilder("<header class=\"summary\">\n");
        if (view.test()) {
            html.append("<p id=\"test-mode\" class=\"badge\">Test mode: no real funds move</p>\n");
        }
        html.append("<h1 id=\"payment-name\">").append(e(view.paymentName())).append("</h1>\n");
        if (view.productName() != null) {
            html.append("<p id=\"product-name\" class=\"product\">")
                    .append(e(view.productName()))
                    .append("</p>\n");
        }
        if (view.description() != null) {
            html.append("<p id=\"description\" class=\"description\">")
                    .append(e(view.description()))
                    .append("</p>\n");
        }
        html.append("<p class=\"total\"><span id=\"amount-total\">")
                .append(e(CheckoutView.plain(view.amount())))
                .append("</span> <span id=\"currency\">")
                .append(e(view.currency()))
                .append("</span> <span class=\"network\">on ")
                .append(e(view.network()))
                .append("</span></p>\n</header>\n");
        return html.toString();
    }

    private static String state(CheckoutView view) {
        CheckoutState state = view.state();
        String confirmations = view.confirmationsText();
        StringBuilder html = new StringBuilder();
        html.append("<section id=\"state\" class=\"state state-")
                .append(state.wireName().replace('_', '-'))
                .append("\" data-state=\"")
                .append(state.wireName())
                .append("\" data-terminal=\"")
                .append(state.terminal())
                .append('"');
        if (confirmations != null) {
            html.append(" data-confirmations=\"").append(view.confirmations()).append('"');
            if (view.requiredConfirmations() != null) {
                html.append(" data-required-confirmations=\"")
                        .append(view.requiredConfirmations())
                        .append('"');
            }
        }
        html.append(" aria-labelledby=\"state-title\">\n<h2 id=\"state-title\">")
                .append(e(state.title()))
                .append("</h2>\n<p id=\"state-detail\">")
                .append(e(view.detail()))
                .append("</p>\n");
        if (confirmations != null) {
            html.append("<p id=\"confirmations\" class=\"confirmations\">")
                    .append(e(confirmations))
                    .append("</p>\n");
        }
        String notice = view.unexpectedAssetNotice();
        if (notice != null) {
            html.append("<p id=\"unexpected-asset\" class=\"message error\">")
                    .append(e(notice))
                    .append("</p>\n");
        }
        if (view.paid() && !view.receipts().isEmpty()) {
            html.append(receipt(view));
        }
        String success = httpUrl(view.successUrl());
        if (view.paid() && success != null) {
            html.append("<p class=\"actions\"><a id=\"continue\" class=\"button\" href=\"")
                    .append(e(success))
                    .append("\" data-redirect-after=\"")
                    .append(state == CheckoutState.PAID ? REDIRECT_SECONDS : 0)
                    .append("\">Continue</a></p>\n");
        }
        return html.append("</section>\n").toString();
    }

    /**
     * The paid link's receipt: amount, network and each confirmed transaction in full (it wraps on a phone), linked to
     * the network's block explorer where one is configured.
     */
    private static String receipt(CheckoutView view) {
        StringBuilder html = new StringBuilder("<dl id=\"receipt\" class=\"fields receipt\">\n");
        html.append("<div class=\"field\"><dt>Paid</dt><dd>")
                .append(e(CheckoutView.plain(view.received())))
                .append(' ')
                .append(e(view.currency()))
                .append(" on ")
                .append(e(view.network()))
                .append("</dd></div>\n");
        for (PaymentReceipt receipt : view.receipts()) {
            html.append("<div class=\"field\"><dt>Transaction</dt><dd><code class=\"tx-hash\">")
                    .append(e(receipt.txHash()))
                    .append("</code>");
            if (receipt.explorerUrl() != null) {
                html.append(" <a class=\"explorer\" href=\"")
                        .append(e(receipt.explorerUrl()))
                        .append("\" rel=\"noopener noreferrer\" target=\"_blank\">View on block explorer</a>");
            }
            html.append("</dd></div>\n");
        }
        return html.append("</dl>\n").toString();
    }

    private static String payment(CheckoutView view) {
        var payment = view.payment();
        String amount = CheckoutView.plain(view.amountDue());
        String token = payment.tokenContract();
        String tokenRow = token == null
                ? ""
                : "<div class=\"field\"><dt>Token contract</dt><dd><code id=\"token-contract\">" + e(token)
                        + "</code></dd></div>\n";
        String label =
                "QR code of the payment request: " + amount + " " + view.currency() + " to " + view.depositAddress();
        return """
                <section id="payment" class="payment" aria-labelledby="payment-title" data-chain-id="%d" \
                data-chain-id-hex="0x%x" data-network="%s" data-deposit-address="%s" data-token-contract="%s" \
                data-amount-base-units="%s">
                <h2 id="payment-title">Send %s %s</h2>
                <dl class="fields">
                <div class="field"><dt>Amount</dt><dd><span id="amount" class="value">%s</span> %s \
                <button type="button" class="copy" id="copy-amount" data-copy="%s" hidden>Copy amount</button></dd></div>
                <div class="field"><dt>Network</dt><dd id="network">%s (chain id %d)</dd></div>
                %s<div class="field"><dt>Deposit address</dt><dd><code id="deposit-address">%s</code> \
                <button type="button" class="copy" id="copy-address" data-copy="%s" hidden>Copy address</button></dd></div>
                </dl>
                <figure class="qr">
                %s
                <figcaption>Scan with a wallet app</figcaption>
                </figure>
                <p class="actions">
                <button type="button" id="pay-with-wallet" class="button" hidden>Pay with browser wallet</button>
                <a id="payment-uri" class="button secondary" href="%s">Open in wallet app</a>
                </p>
                <p id="wallet-message" class="message" tabindex="-1" hidden></p>
                <p class="countdown">Time left to pay: <time id="countdown" datetime="%s" data-expires-in="%d">%s</time></p>
                </section>
                """.formatted(
                        payment.chainId(),
                        payment.chainId(),
                        e(view.network()),
                        e(view.depositAddress()),
                        token == null ? "" : e(token),
                        view.amountDueBaseUnits(),
                        e(amount),
                        e(view.currency()),
                        e(amount),
                        e(view.currency()),
                        e(amount),
                        e(view.network()),
                        payment.chainId(),
                        tokenRow,
                        e(view.depositAddress()),
                        e(view.depositAddress()),
                        QrCodeSvg.render(view.paymentUri(), label, "qr-code"),
                        e(view.paymentUri()),
                        DateTimeFormatter.ISO_INSTANT.format(view.expiresAt()),
                        view.expiresIn().toSeconds(),
                        countdown(view.expiresIn()));
    }

    private static String returnLink(CheckoutView view) {
        String cancel = httpUrl(view.cancelUrl());
        if (cancel == null || view.state() == CheckoutState.PAID || view.state() == CheckoutState.OVERPAID) {
            return "";
        }
        String text = view.state().terminal() ? "Return to the merchant" : "Cancel and return";
        return "<p class=\"return\"><a id=\"cancel-link\" href=\"" + e(cancel) + "\">" + text + "</a></p>\n";
    }

    /** Time left as {@code HH:MM:SS}, with a day count in front when it is a day or more. */
    static String countdown(Duration left) {
        long seconds = Math.max(0, left.toSeconds());
        long days = seconds / 86_400;
        String clock = "%02d:%02d:%02d".formatted((seconds % 86_400) / 3600, (seconds % 3600) / 60, seconds % 60);
        return days > 0 ? days + " d " + clock : clock;
    }

    /** The URL when it is an absolute http(s) URL, else null (never render another scheme into a link). */
    static String httpUrl(String url) {
        return Html.httpUrl(url);
    }

    private static String e(String text) {
        return Html.escape(text);
    }
}
