package dev.cryptopay.checkoutui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PageShellTest {

    private final PageShell shell = new PageShell(
            "checkout",
            "assets/checkout.css?v=0123456789abcdef",
            "assets/checkout.js?v=fedcba9876543210",
            "Paid straight to the merchant's own wallet.",
            false);

    @Test
    void wrapsThePageInTheSharedDocument() {
        String html = shell.document(
                "Awaiting payment · Tea & <b>cake</b>",
                "<noscript><meta http-equiv=\"refresh\" content=\"10\"></noscript>",
                " data-payment-id=\"42\"",
                "<h1>Tea</h1>\n");

        assertThat(html).isEqualTo("""
                <!DOCTYPE html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <meta name="robots" content="noindex">
                <title>Awaiting payment · Tea &amp; &lt;b&gt;cake&lt;/b&gt;</title>
                <link rel="stylesheet" href="assets/checkout.css?v=0123456789abcdef">
                <script src="assets/checkout.js?v=fedcba9876543210" defer></script>
                <noscript><meta http-equiv="refresh" content="10"></noscript>
                </head>
                <body>
                <main id="checkout" data-payment-id="42">
                <h1>Tea</h1>
                </main>
                <p id="announcer" class="visually-hidden" aria-live="polite"></p>
                <footer class="footer"><p>Paid straight to the merchant's own wallet.</p></footer>
                </body>
                </html>
                """);
        PageChecks.assertPageMarkup(html);
    }

    @Test
    void aBlankIconSparesTheFaviconRequest() {
        PageShell subscribe = new PageShell("subscribe", "a.css", "a.js", "Footer.", true);
        String html = subscribe.document("Title", "", "", "<h1>x</h1>\n");
        assertThat(html)
                .contains("<meta name=\"robots\" content=\"noindex\">\n<link rel=\"icon\" href=\"data:,\">\n<title>")
                .contains("<main id=\"subscribe\">\n<h1>x</h1>\n</main>");
        assertThat(shell.document("Title", "", "", "")).doesNotContain("rel=\"icon\"");
    }

    @Test
    void aProblemPageIsAFinalStateWithItsTitleAsTheOnlyHeading() {
        String html = shell.problem("not_found", "Payment <not> found", "Check the link & try again.");

        assertThat(PageChecks.state(html)).isEqualTo("not_found");
        assertThat(html)
                .contains("<title>Payment &lt;not&gt; found</title>")
                .contains("<main id=\"checkout\">\n<section id=\"state\" class=\"state state-not-found\" "
                        + "data-state=\"not_found\" data-terminal=\"true\">\n"
                        + "<h1 id=\"state-title\">Payment &lt;not&gt; found</h1>\n"
                        + "<p id=\"state-detail\">Check the link &amp; try again.</p>\n</section>\n</main>");
        PageChecks.assertPageMarkup(html);
    }

    @Test
    void theMarkupCheckCatchesInlineCode() {
        for (String inline : new String[] {
            "<script>alert(1)</script>", "<p style=\"color:red\">x</p>", "<img src=x onerror=alert(1)>", "<style>"
        }) {
            String html = shell.document("Title", "", "", "<h1>x</h1>\n" + inline + "\n");
            assertThatThrownBy(() -> PageChecks.assertPageMarkup(html))
                    .as(inline)
                    .isInstanceOf(AssertionError.class);
        }
    }
}
