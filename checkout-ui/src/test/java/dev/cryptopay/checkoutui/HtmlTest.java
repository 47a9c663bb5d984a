package dev.cryptopay.checkoutui;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HtmlTest {

    @Test
    void escapesMarkupQuotesAndAmpersands() {
        assertThat(Html.escape("<script>alert('x')</script>"))
                .isEqualTo("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
        assertThat(Html.escape("\"><img src=x onerror=alert(1)>"))
                .isEqualTo("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;");
        assertThat(Html.escape("Tom & Jerry")).isEqualTo("Tom &amp; Jerry");
        assertThat(Html.escape("café ✓")).isEqualTo("café ✓");
        assertThat(Html.escape(null)).isEmpty();
    }

    @Test
    void followsOnlyAbsoluteWebLinks() {
        assertThat(Html.httpUrl("https://shop.example/thanks?a=1&b=2"))
                .isEqualTo("https://shop.example/thanks?a=1&b=2");
        assertThat(Html.httpUrl("HTTP://shop.example")).isEqualTo("HTTP://shop.example");
        assertThat(Html.httpUrl("javascript:alert(1)")).isNull();
        assertThat(Html.httpUrl("data:text/html,<b>x</b>")).isNull();
        assertThat(Html.httpUrl("/relative")).isNull();
        assertThat(Html.httpUrl("http:no-host")).isNull();
        assertThat(Html.httpUrl("https://bad host")).isNull();
        assertThat(Html.httpUrl(null)).isNull();
    }

    @Test
    void shortensLongHexForSentences() {
        String hash = "0x" + "0123456789abcdef".repeat(4);
        assertThat(Html.shortHex(hash)).isEqualTo("0x0123…cdef");
        assertThat(Html.shortHex("0x1234")).isEqualTo("0x1234");
        assertThat(Html.shortHex(null)).isNull();
    }
}
