package dev.cryptopay.subscriptions.page;

import static dev.cryptopay.checkoutui.Html.escape;

import dev.cryptopay.subscriptions.plan.PlanTerms;

/**
 * The plan's signed terms in words, so a customer knows before enrolling what the contract will do: each payment,
 * every interval, the trial, the grace, what missed payments lead to, when it ends, the invitation's deadline, the
 * allowance the wallet grants and how to cancel; then who offers it, whether the merchant's signature of exactly these
 * terms checks out, and the network. Hooks: {@code #terms} with one {@code li} per term ({@code #term-amount},
 * {@code #term-interval}, {@code #term-trial}, {@code #term-grace}, {@code #term-missed}, {@code #term-end},
 * {@code #term-deadline}, {@code #term-approval}, {@code #term-cancel}, {@code #term-destination}),
 * {@code #merchant}, {@code #signature[data-verified]} and {@code #network}.
 */
final class TermsSection {

    private TermsSection() {}

    static String render(SubscribeView view) {
        PlanTerms terms = view.terms();
        StringBuilder html = new StringBuilder(
                "<section id=\"plan-terms\" class=\"terms-section\" aria-labelledby=\"terms-title\">\n"
                        + "<h2 id=\"terms-title\">Terms</h2>\n<ul id=\"terms\" class=\"terms\">\n");
        item(
                html,
                "term-amount",
                "Each payment: " + view.price() + " (token " + view.token().contractAddress() + "), pulled from your"
                        + " wallet by the subscription contract: one payment per period, never more.");
        item(html, "term-interval", "Billed " + Words.every(terms.interval()) + ".");
        item(
                html,
                "term-trial",
                terms.trialPeriod() > 0
                        ? "Free trial of " + Words.duration(terms.trialPeriod())
                                + ": the first payment is taken when the trial ends."
                        : "No trial: the first payment is taken when you subscribe.");
        item(
                html,
                "term-grace",
                "A payment your wallet cannot cover when it is due (too little balance or allowance) may still be"
                        + " collected within " + Words.duration(view.effectiveGrace())
                        + "; after that the period counts as missed.");
        long autoCancel = terms.autoCancelAfterMissed();
        item(
                html,
                "term-missed",
                autoCancel > 0
                        ? "After " + Words.count(autoCancel, "missed payment") + " in a row the subscription is"
                                + " cancelled automatically; missed payments are recorded as owed."
                        : "Missed payments are recorded as owed; the subscription is not cancelled automatically.");
        item(html, "term-end", "No end date: it runs until you or the merchant cancel it.");
        if (view.openUntil() != null && view.link() == null) {
            item(html, "term-deadline", "This invitation can be used until " + Words.dateTime(view.openUntil()) + ".");
        }
        if (view.kit() != null) {
            item(
                    html,
                    "term-approval",
                    "Your wallet allows the subscription contract " + view.contract() + " to take up to "
                            + view.amount(view.kit().approvalAmount()) + " ("
                            + Words.count(view.kit().periods(), "payment")
                            + "); you can lower or revoke that allowance in your wallet at any time.");
        }
        item(html, "term-cancel", "Cancel at any time from this page: one transaction from your wallet.");
        item(html, "term-destination", "Payments go to the merchant's wallet " + terms.destination() + ".");
        html.append("</ul>\n");
        html.append("<p id=\"merchant\" class=\"merchant\">")
                .append(
                        view.merchantName() == null
                                ? "Offered by the merchant wallet"
                                : "Offered by " + escape(view.merchantName()) + ", whose wallet is")
                .append(" <code>")
                .append(escape(terms.merchant()))
                .append("</code>.</p>\n");
        html.append(signature(view));
        html.append("<p id=\"network\">Network: ")
                .append(escape(view.network().name()))
                .append(" (chain id ")
                .append(view.network().chainId())
                .append(")</p>\n");
        return html.append("</section>\n").toString();
    }

    private static String signature(SubscribeView view) {
        Boolean verified = view.signatureVerified();
        if (verified == null) {
            return "<p id=\"signature\" data-verified=\"unknown\">The merchant's signature could not be checked here:"
                    + " no subscription contract is configured for this network.</p>\n";
        }
        if (verified) {
            return "<p id=\"signature\" class=\"verified\" data-verified=\"true\">Merchant's signature verified: the"
                    + " wallet above signed exactly these terms for this network's subscription contract.</p>\n";
        }
        return "<p id=\"signature\" class=\"unverified\" data-verified=\"false\">The merchant's signature of these"
                + " terms does not check out: do not subscribe, and contact the merchant.</p>\n";
    }

    private static void item(StringBuilder html, String id, String text) {
        html.append("<li id=\"").append(id).append("\">").append(escape(text)).append("</li>\n");
    }
}
