package dev.cryptopay.subscriptions.page;

import static dev.cryptopay.checkoutui.Html.escape;

import dev.cryptopay.checkoutui.Html;
import dev.cryptopay.checkoutui.PageShell;
import org.springframework.stereotype.Component;

/**
 * Renders the subscribe page into checkout-ui's {@link PageShell} (the payment checkout's too). Every text (the plan's
 * name and description, the customer's name, addresses, hashes) is HTML-escaped; the merchant's return URLs are used
 * only when they are http(s). The markup has no inline script or style (the Content-Security-Policy forbids both):
 * behaviour comes from {@code subscribe.js}, looks from checkout-ui's {@code checkout.css}, and the page works without
 * either.
 *
 * <p>Stable hooks for scripts and browser tests: {@code main[data-subscriber-id]}, {@code #state[data-state]
 * [data-terminal]}, {@code #state-title}, {@code #state-detail}, {@code #plan-name}, {@code #merchant-name},
 * {@code #price},
 * {@code #customer}, those of {@link TermsSection}, {@link EnrolSection} and {@link SubscriptionSection},
 * {@code #return-link} and the live region {@code #announcer}.
 */
@Component
class SubscribePage {

    /** Seconds before a page without JavaScript reloads itself while the chain has not confirmed an enrolment. */
    static final int REFRESH_SECONDS = 10;

    private final PageShell shell;

    SubscribePage(SubscribeAssets assets) {
        this.shell = new PageShell(
                "subscribe",
                assets.stylesheetPath(),
                assets.scriptPath(),
                "Paid from your own wallet, straight to the merchant's, by a public subscription contract.",
                true);
    }

    /** The whole page of one subscriber. */
    String render(SubscribeView view) {
        return render(view, null);
    }

    /** @param notice a refusal of the by-hand enrolment form, shown beside the form; null for none */
    String render(SubscribeView view, String notice) {
        String head = view.state() == SubscribeState.PENDING
                ? "<noscript><meta http-equiv=\"refresh\" content=\"" + REFRESH_SECONDS + "\"></noscript>"
                : "";
        StringBuilder main = new StringBuilder(summary(view)).append(state(view));
        if (view.link() != null && view.state() != SubscribeState.ENROLMENT_FAILED) {
            main.append(SubscriptionSection.render(view));
        }
        if (view.state().enrols()) {
            // The terms first: a customer reads what it agrees to before the button that agrees.
            main.append(TermsSection.render(view)).append(EnrolSection.render(view, notice));
        } else {
            main.append(TermsSection.render(view));
        }
        main.append(returnLink(view));
        return shell.document(
                view.state().title() + " · " + view.planRecord().name(),
                head,
                " data-subscriber-id=\"" + view.subscriberId() + "\"",
                main.toString());
    }

    /** The page for a subscriber id that names no subscriber (answered with 404). */
    String notFound() {
        return shell.problem(
                "not_found",
                "Invitation not found",
                "This subscription link does not exist. Check the link you were given, or contact the merchant.");
    }

    /** The page for a link without a valid subscriber id (answered with 400). */
    String badLink() {
        return shell.problem(
                "bad_link",
                "Incomplete subscription link",
                "This link lacks a valid subscriber_id. Open the whole link the merchant sent you.");
    }

    private static String summary(SubscribeView view) {
        StringBuilder html = new StringBuilder("<header class=\"summary\">\n");
        if (view.test()) {
            html.append("<p id=\"test-mode\" class=\"badge\">Test mode: no real funds move</p>\n");
        }
        html.append("<h1 id=\"plan-name\">")
                .append(escape(view.planRecord().name()))
                .append("</h1>\n");
        if (view.merchantName() != null) {
            html.append("<p id=\"merchant-name\" class=\"merchant\">Offered by ")
                    .append(escape(view.merchantName()))
                    .append("</p>\n");
        }
        if (view.planRecord().description() != null) {
            html.append("<p id=\"description\" class=\"description\">")
                    .append(escape(view.planRecord().description()))
                    .append("</p>\n");
        }
        html.append("<p class=\"total\"><span id=\"price\">")
                .append(escape(view.priceEvery()))
                .append("</span> <span class=\"network\">on ")
                .append(escape(view.network().name()))
                .append("</span></p>\n");
        String customer = view.subscriber().customerName();
        if (customer != null) {
            html.append("<p id=\"customer\">For ").append(escape(customer)).append("</p>\n");
        }
        return html.append("</header>\n").toString();
    }

    private static String state(SubscribeView view) {
        SubscribeState state = view.state();
        return "<section id=\"state\" class=\"state state-" + state.wireName().replace('_', '-') + "\" data-state=\""
                + state.wireName() + "\" data-terminal=\"" + view.terminal() + "\" data-chain-status=\""
                + (view.link() == null ? "" : view.link().chainStatus().wireName()) + "\" data-paid-periods=\""
                + (view.link() == null ? 0 : view.link().paidPeriods()) + "\" data-payments=\""
                + view.payments().size() + "\" data-owed=\"" + escape(view.owedUnits())
                + "\" aria-labelledby=\"state-title\">\n<h2 id=\"state-title\">"
                + escape(state.title()) + "</h2>\n<p id=\"state-detail\">" + escape(view.detail()) + "</p>\n"
                + "<p id=\"page-message\" class=\"message\" tabindex=\"-1\" role=\"status\" hidden></p>\n"
                + "</section>\n";
    }

    /**
     * Back to the merchant: {@code success_return_url} once subscribed (or while it is being confirmed),
     * {@code failure_return_url} when it cannot be subscribed or ended, and from the invitation without subscribing.
     */
    private static String returnLink(SubscribeView view) {
        boolean success = view.state() == SubscribeState.ACTIVE || view.state() == SubscribeState.PENDING;
        String url = Html.httpUrl(
                success
                        ? view.subscriber().successReturnUrl()
                        : view.subscriber().failureReturnUrl());
        if (url == null || view.state() == SubscribeState.PAUSED) {
            return "";
        }
        String text = success
                ? "Return to the merchant"
                : view.state() == SubscribeState.INVITATION
                        ? "Not now: return to the merchant"
                        : "Return to the merchant";
        return "<p class=\"return\"><a id=\"return-link\" data-kind=\"" + (success ? "success" : "failure")
                + "\" href=\"" + escape(url) + "\">" + text + "</a></p>\n";
    }
}
