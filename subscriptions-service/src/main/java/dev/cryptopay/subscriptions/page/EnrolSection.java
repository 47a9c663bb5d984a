package dev.cryptopay.subscriptions.page;

import static dev.cryptopay.checkoutui.Html.escape;

import dev.cryptopay.subscriptions.subscription.CustomerResponses.Preparation;
import dev.cryptopay.subscriptions.subscription.CustomerResponses.WalletTransaction;
import java.math.BigInteger;

/**
 * How to subscribe, while the page offers enrolment: the steps, the browser-wallet button (the script shows it when a
 * wallet is found) and, for any wallet and without JavaScript, the two transactions of {@code prepare} to send by hand
 * and a form to report the subscribe transaction. Hooks: {@code #enrol} (its {@code data-*} tell the script the chain,
 * token, contract, per-period amount and trial), {@code #steps} with {@code #step-connect}, {@code #step-approve},
 * {@code #step-subscribe}, {@code #step-confirm} ({@code data-step-state}), {@code #subscribe-with-wallet},
 * {@code #wallet-message[data-problem]}, {@code #by-hand}, {@code #calldata-approve}, {@code #calldata-subscribe},
 * {@code #enrol-form} and {@code #form-error}.
 */
final class EnrolSection {

    private EnrolSection() {}

    /** @param notice a refusal of the by-hand form to show, or null */
    static String render(SubscribeView view, String notice) {
        Preparation kit = view.kit() == null ? null : Preparation.of(view.kit());
        long chainId = view.network().chainId();
        String approval =
                kit == null ? null : view.amount(new BigInteger(kit.approval().amount()));
        StringBuilder html = new StringBuilder();
        html.append("<section id=\"enrol\" class=\"enrol\" aria-labelledby=\"enrol-title\"")
                .append(attribute("subscriber-id", view.subscriberId().toString()))
                .append(attribute("chain-id", String.valueOf(chainId)))
                .append(attribute("chain-id-hex", "0x" + Long.toHexString(chainId)))
                .append(attribute("network", view.network().name()))
                .append(attribute("token", view.token().contractAddress()))
                .append(attribute("symbol", view.token().currencyCode()))
                .append(attribute("decimals", String.valueOf(view.token().decimals())))
                .append(attribute("amount", view.planRecord().billedAmount().toString()))
                .append(attribute("contract", view.contract() == null ? "" : view.contract()))
                .append(attribute("trial-period", String.valueOf(view.terms().trialPeriod())))
                .append(attribute(
                        "approval-periods",
                        kit == null ? "" : String.valueOf(kit.approval().periods())))
                .append(">\n<h2 id=\"enrol-title\">Subscribe</h2>\n");
        html.append("<p>Your wallet asks you to confirm two transactions: an allowance for the subscription contract,"
                + " then the subscription itself.</p>\n");
        html.append("<ol id=\"steps\" class=\"steps\">\n");
        step(html, "step-connect", "Connect your wallet on " + view.network().name() + ".");
        step(
                html,
                "step-approve",
                approval == null
                        ? "Allow the subscription contract to take the payments."
                        : "Allow the subscription contract to take up to " + approval + ".");
        step(
                html,
                "step-subscribe",
                view.terms().trialPeriod() > 0
                        ? "Subscribe: your free trial starts; nothing is paid yet."
                        : "Subscribe: the first payment of " + view.price() + " is taken now.");
        step(html, "step-confirm", "Wait for " + view.network().name() + " to confirm it.");
        html.append("</ol>\n");
        html.append("<p class=\"actions\"><button type=\"button\" id=\"subscribe-with-wallet\" class=\"button\" hidden>"
                + "Subscribe with browser wallet</button></p>\n"
                + "<p id=\"wallet-message\" class=\"message\" tabindex=\"-1\" role=\"status\" hidden></p>\n");
        html.append(byHand(view, kit, approval, notice));
        return html.append("</section>\n").toString();
    }

    private static String byHand(SubscribeView view, Preparation kit, String approval, String notice) {
        StringBuilder html = new StringBuilder("<details id=\"by-hand\" class=\"by-hand\" open>\n"
                + "<summary>Subscribe by hand, from any wallet</summary>\n");
        if (kit == null || kit.transactions().size() != 2) {
            html.append("<p>The transactions to send are not available right now. Reload this page in a moment.</p>\n");
        } else {
            WalletTransaction approve = kit.transactions().get(0);
            WalletTransaction subscribe = kit.transactions().get(1);
            html.append("<ol class=\"steps\">\n<li>On ")
                    .append(escape(view.network().name()))
                    .append(" (chain id ")
                    .append(view.network().chainId())
                    .append("), send to the token contract <code>")
                    .append(escape(approve.to()))
                    .append("</code>, value 0, this data (an allowance of ")
                    .append(escape(approval))
                    .append(" for the subscription contract):\n<code id=\"calldata-approve\" class=\"calldata\">")
                    .append(escape(approve.data()))
                    .append("</code></li>\n<li>Then send to the subscription contract <code>")
                    .append(escape(subscribe.to()))
                    .append("</code>, value 0, this data (the signed plan, the merchant's signature and this"
                            + " invitation's reference):\n<code id=\"calldata-subscribe\" class=\"calldata\">")
                    .append(escape(subscribe.data()))
                    .append("</code></li>\n<li>Then tell us which transaction subscribed you:</li>\n</ol>\n");
        }
        if (notice != null) {
            html.append("<p id=\"form-error\" class=\"message error\" role=\"alert\">")
                    .append(escape(notice))
                    .append("</p>\n");
        }
        html.append("<form id=\"enrol-form\" method=\"post\" action=\"subscribe/enrol\">\n"
                        + "<input type=\"hidden\" name=\"subscriber_id\" value=\"")
                .append(escape(view.subscriberId().toString()))
                .append("\">\n<label class=\"form-field\"><span>Your wallet address</span>"
                        + "<input name=\"wallet_address\" required pattern=\"0x[0-9a-fA-F]{40}\" autocomplete=\"off\""
                        + " spellcheck=\"false\" placeholder=\"0x…\"></label>\n"
                        + "<label class=\"form-field\"><span>Subscribe transaction hash</span>"
                        + "<input name=\"subscribe_hash\" required pattern=\"0x[0-9a-fA-F]{64}\" autocomplete=\"off\""
                        + " spellcheck=\"false\" placeholder=\"0x…\"></label>\n"
                        + "<p class=\"actions\"><button type=\"submit\" class=\"button secondary\">I have subscribed"
                        + "</button></p>\n</form>\n</details>\n");
        return html.toString();
    }

    private static void step(StringBuilder html, String id, String text) {
        html.append("<li id=\"")
                .append(id)
                .append("\" data-step-state=\"todo\">")
                .append(escape(text))
                .append("</li>\n");
    }

    private static String attribute(String name, String value) {
        return " data-" + name + "=\"" + escape(value) + "\"";
    }
}
