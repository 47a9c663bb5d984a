package dev.cryptopay.subscriptions.page;

import static dev.cryptopay.checkoutui.Html.escape;

import dev.cryptopay.subscriptions.plan.SubscriptionContractCalls;
import dev.cryptopay.subscriptions.subscription.SubscriptionLink;
import java.time.Instant;

/**
 * The subscription once the customer enrolled (the same address): its wallet, dates, next payment, paid periods, what
 * it owes, each paid period with its transaction, and cancelling from the wallet — the contract's
 * {@code cancel(chain_subscription_id)}, by the script or by hand. Hooks: {@code #subscription} (its {@code data-*}
 * tell the script the chain, contract, subscription id and wallet), {@code #wallet-address}, {@code #next-billing},
 * {@code #paid-periods}, {@code #owed}, {@code #payments} with one {@code tr.payment[data-tx-hash]} per period,
 * {@code #cancel-subscription}, {@code #cancel-message[data-problem]} and {@code #calldata-cancel}.
 */
final class SubscriptionSection {

    private SubscriptionSection() {}

    static String render(SubscribeView view) {
        SubscriptionLink link = view.link();
        long chainId = view.network().chainId();
        String subscriptionId = link.chainSubscriptionId();
        StringBuilder html = new StringBuilder();
        html.append("<section id=\"subscription\" class=\"subscription\" aria-labelledby=\"subscription-title\"")
                .append(attribute("chain-id", String.valueOf(chainId)))
                .append(attribute("chain-id-hex", "0x" + Long.toHexString(chainId)))
                .append(attribute("network", view.network().name()))
                .append(attribute("contract", view.contract() == null ? "" : view.contract()))
                .append(attribute("chain-subscription-id", subscriptionId == null ? "" : subscriptionId))
                .append(attribute("wallet", link.walletAddress()))
                .append(">\n<h2 id=\"subscription-title\">Your subscription</h2>\n<dl class=\"fields\">\n");
        field(
                html,
                "Plan",
                "<span id=\"subscription-plan\">" + escape(view.planRecord().name()) + "</span> · "
                        + escape(view.priceEvery()));
        field(html, "Wallet", "<code id=\"wallet-address\">" + escape(link.walletAddress()) + "</code>");
        if (link.subscribedAt() != null) {
            field(html, "Subscribed", time("subscribed-at", link.subscribedAt()));
        }
        if (link.trialEndsAt() != null && view.terms().trialPeriod() > 0) {
            field(html, "Trial ends", time("trial-ends-at", link.trialEndsAt()));
        }
        Instant next = view.nextBillingAt();
        if (next != null && view.state() == SubscribeState.ACTIVE) {
            field(html, "Next payment", time("next-billing", next) + " · " + escape(view.price()));
        }
        field(html, "Paid periods", "<span id=\"paid-periods\">" + link.paidPeriods() + "</span>");
        field(html, "Owed", "<span id=\"owed\">" + escape(view.owed()) + "</span>");
        String subscribeHash = "<code class=\"tx-hash\">" + escape(link.subscribeHash()) + "</code>"
                + explorer(view.subscribeExplorerUrl());
        field(html, "Subscribe transaction", subscribeHash);
        html.append("</dl>\n");
        html.append(payments(view));
        if (view.cancellableOnChain()) {
            html.append(cancel(view, subscriptionId));
        }
        return html.append("</section>\n").toString();
    }

    private static String payments(SubscribeView view) {
        if (view.payments().isEmpty()) {
            return "<h3 id=\"payments-title\">Payments</h3>\n<p id=\"no-payments\">No payment yet.</p>\n";
        }
        StringBuilder html = new StringBuilder("<h3 id=\"payments-title\">Payments</h3>\n"
                + "<table id=\"payments\" class=\"payments\" aria-labelledby=\"payments-title\">\n<thead><tr>"
                + "<th scope=\"col\">Period</th><th scope=\"col\">Amount</th><th scope=\"col\">Status</th>"
                + "<th scope=\"col\">Transaction</th></tr></thead>\n<tbody>\n");
        for (PaymentLine payment : view.payments()) {
            html.append("<tr class=\"payment\" data-tx-hash=\"")
                    .append(escape(payment.txHash()))
                    .append("\"><td data-label=\"Period\">")
                    .append(escape(Words.period(
                            payment.startsAt(), payment.endsAt(), view.terms().interval())))
                    .append("</td><td data-label=\"Amount\">")
                    .append(escape(payment.amount()))
                    .append("</td><td data-label=\"Status\">")
                    .append(escape(payment.status()))
                    .append("</td><td data-label=\"Transaction\"><code class=\"tx-hash\">")
                    .append(escape(payment.txHash()))
                    .append("</code>")
                    .append(explorer(payment.explorerUrl()))
                    .append("</td></tr>\n");
        }
        return html.append("</tbody>\n</table>\n").toString();
    }

    private static String cancel(SubscribeView view, String subscriptionId) {
        String calldata = SubscriptionContractCalls.cancel(subscriptionId);
        String why = view.state() == SubscribeState.CANCELLED
                ? "Ending it on the contract withdraws it for everyone: nobody can collect a payment after that."
                : "Cancelling stops every future payment at once.";
        return "<div id=\"cancel\" class=\"cancel\">\n<h3>Cancel</h3>\n<p>" + why
                + " Only the wallet that subscribed can do it, with one transaction.</p>\n"
                + "<p class=\"actions\"><button type=\"button\" id=\"cancel-subscription\" class=\"button danger\" hidden>"
                + "Cancel subscription</button></p>\n"
                + "<p id=\"cancel-message\" class=\"message\" tabindex=\"-1\" role=\"status\" hidden></p>\n"
                + "<details class=\"by-hand\"><summary>Cancel by hand, from any wallet</summary>\n<p>From <code>"
                + escape(view.link().walletAddress()) + "</code> on "
                + escape(view.network().name())
                + ", send to the subscription contract <code>" + escape(view.contract() == null ? "" : view.contract())
                + "</code>, value 0, this data:</p>\n<code id=\"calldata-cancel\" class=\"calldata\">"
                + escape(calldata)
                + "</code>\n</details>\n</div>\n";
    }

    private static String explorer(String url) {
        return url == null
                ? ""
                : " <a class=\"explorer\" href=\"" + escape(url)
                        + "\" rel=\"noopener noreferrer\" target=\"_blank\">View on block explorer</a>";
    }

    private static String time(String id, Instant instant) {
        return "<time id=\"" + id + "\" datetime=\"" + Words.iso(instant) + "\">" + escape(Words.dateTime(instant))
                + "</time>";
    }

    private static void field(StringBuilder html, String term, String definitionHtml) {
        html.append("<div class=\"field\"><dt>")
                .append(escape(term))
                .append("</dt><dd>")
                .append(definitionHtml)
                .append("</dd></div>\n");
    }

    private static String attribute(String name, String value) {
        return " data-" + name + "=\"" + escape(value) + "\"";
    }
}
