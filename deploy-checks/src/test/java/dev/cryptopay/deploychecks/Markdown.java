package dev.cryptopay.deploychecks;

import java.util.Locale;

/** Headings and GitHub anchors of Markdown files. */
final class Markdown {

    private Markdown() {}

    /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
    static String slug(String heading) {
        return heading.trim()
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N} _-]", "")
                .replace(' ', '-');
    }

    /** The text under the heading whose anchor is {@code anchor}, up to the next heading of any level; null if none. */
    static String section(String markdown, String anchor) {
        StringBuilder section = null;
        boolean inCode = false;
        for (String line : markdown.lines().toList()) {
            if (line.startsWith("```")) {
                inCode = !inCode;
            }
            if (!inCode && line.startsWith("#")) {
                if (section != null) {
                    return section.toString();
                }
                if (slug(line.replaceFirst("^#+", "")).equals(anchor)) {
                    section = new StringBuilder();
                    continue;
                }
            }
            if (section != null) {
                section.append(line).append('\n');
            }
        }
        return section == null ? null : section.toString();
    }
}
