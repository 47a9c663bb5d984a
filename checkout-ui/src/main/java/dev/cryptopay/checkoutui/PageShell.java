package dev.cryptopay.checkoutui;

/**
 * The HTML document every customer page is rendered into, so the payment checkout and the subscribe page share one
 * shell: {@code lang}, viewport and {@code noindex}, the page's stylesheet and deferred script bundle (versioned links,
 * see {@link StaticAsset#link}), no inline script or style (the {@link CheckoutHeaders} policy forbids both), one
 * {@code <main>} whose content {@code live.js} swaps, the {@code aria-live} {@code #announcer} outside it, and the
 * page's footer.
 *
 * @param mainId the {@code id} of {@code <main>} (a constant of the page)
 * @param stylesheet the stylesheet's link, relative to the page
 * @param script the script bundle's link, relative to the page
 * @param footer the footer's sentence: markup the page writes itself (a constant, not escaped)
 * @param blankIcon whether the head names an empty {@code data:} icon, so the browser asks for no
 *     {@code /favicon.ico}
 */
public record PageShell(String mainId, String stylesheet, String script, String footer, boolean blankIcon) {

    /**
     * The whole document.
     *
     * @param title the document's title (escaped here)
     * @param head markup at the end of {@code <head>} (such as a {@code <noscript>} refresh), or empty
     * @param mainAttributes attributes of {@code <main>}, each with its leading space, or empty
     * @param main the content of {@code <main>}, ending with a newline
     */
    public String document(String title, String head, String mainAttributes, String main) {
        return """
                <!DOCTYPE html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <meta name="robots" content="noindex">
                %s<title>%s</title>
                <link rel="stylesheet" href="%s">
                <script src="%s" defer></script>
                %s
                </head>
                <body>
                <main id="%s"%s>
                %s</main>
                <p id="announcer" class="visually-hidden" aria-live="polite"></p>
                <footer class="footer"><p>%s</p></footer>
                </body>
                </html>
                """.formatted(
                        blankIcon ? "<link rel=\"icon\" href=\"data:,\">\n" : "",
                        Html.escape(title),
                        Html.escape(stylesheet),
                        Html.escape(script),
                        head,
                        mainId,
                        mainAttributes,
                        main,
                        footer);
    }

    /**
     * The document of a link that shows nothing to pay or subscribe to (an unknown or malformed id): a final
     * {@code #state} with the title as the page's only heading and the detail below it.
     *
     * @param state the {@code data-state} (such as {@code not_found})
     */
    public String problem(String state, String title, String detail) {
        String main = "<section id=\"state\" class=\"state state-not-found\" data-state=\"" + Html.escape(state)
                + "\" data-terminal=\"true\">\n<h1 id=\"state-title\">" + Html.escape(title)
                + "</h1>\n<p id=\"state-detail\">" + Html.escape(detail) + "</p>\n</section>\n";
        return document(title, "", "", main);
    }
}
