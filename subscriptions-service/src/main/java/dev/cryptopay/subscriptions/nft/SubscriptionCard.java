package dev.cryptopay.subscriptions.nft;

import dev.cryptopay.subscriptions.plan.PlanView;

/** A plan's terms in words, and drawn as the NFT's SVG card. */
record SubscriptionCard(String name, String amount, String interval, String trial, String network, String status) {

    static SubscriptionCard of(PlanView view) {
        long trialSeconds = view.plan().terms().trialPeriod();
        return new SubscriptionCard(
                view.plan().name(),
                view.token().format(view.plan().billedAmount()) + " "
                        + view.token().currencyCode(),
                duration(view.plan().terms().interval()),
                trialSeconds == 0 ? "none" : duration(trialSeconds),
                view.network().name(),
                view.plan().status().wireName());
    }

    String summary() {
        return name + ": " + amount + " every " + interval + " on " + network
                + ("none".equals(trial) ? "" : ", " + trial + " free trial");
    }

    /** 2592000 → "30 days", 3600 → "1 hour", 90 → "90 seconds". */
    static String duration(long seconds) {
        if (seconds % 86400 == 0) {
            return plural(seconds / 86400, "day");
        }
        if (seconds % 3600 == 0) {
            return plural(seconds / 3600, "hour");
        }
        if (seconds % 60 == 0) {
            return plural(seconds / 60, "minute");
        }
        return plural(seconds, "second");
    }

    private static String plural(long count, String unit) {
        return count + " " + unit + (count == 1 ? "" : "s");
    }

    String svg() {
        return """
                <svg xmlns="http://www.w3.org/2000/svg" width="480" height="300" viewBox="0 0 480 300" role="img">
                  <title>%1$s</title>
                  <rect width="480" height="300" rx="24" fill="#10233f"/>
                  <text x="32" y="64" fill="#ffffff" font-family="sans-serif" font-size="28" font-weight="bold">%1$s</text>
                  <text x="32" y="120" fill="#9fd3ff" font-family="sans-serif" font-size="22">%2$s</text>
                  <text x="32" y="154" fill="#ffffff" font-family="sans-serif" font-size="18">every %3$s</text>
                  <text x="32" y="188" fill="#ffffff" font-family="sans-serif" font-size="16">trial: %4$s</text>
                  <text x="32" y="250" fill="#9fd3ff" font-family="sans-serif" font-size="14">%5$s · %6$s</text>
                </svg>
                """.formatted(
                        escape(truncate(name, 40)),
                        escape(amount),
                        escape(interval),
                        escape(trial),
                        escape(network),
                        escape(status));
    }

    private static String truncate(String text, int max) {
        return text.codePointCount(0, text.length()) <= max
                ? text
                : text.substring(0, text.offsetByCodePoints(0, max - 1)) + "…";
    }

    /** XML text escaping: the plan's name is the merchant's text. */
    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&apos;");
                default -> {
                    if (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
