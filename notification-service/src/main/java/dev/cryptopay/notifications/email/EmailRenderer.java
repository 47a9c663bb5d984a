package dev.cryptopay.notifications.email;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import org.springframework.stereotype.Component;
import org.thymeleaf.context.Context;
import org.thymeleaf.spring6.SpringTemplateEngine;
import org.thymeleaf.templatemode.TemplateMode;
import org.thymeleaf.templateresolver.ClassLoaderTemplateResolver;

/**
 * Renders the two parts of an e-mail from {@code templates/email/<name>.html} (HTML mode: every {@code th:text} value
 * is escaped) and {@code templates/email/<name>.txt} (text mode), with the same variables. Templates are parsed once
 * and cached.
 */
@Component
public class EmailRenderer {

    private final SpringTemplateEngine engine = new SpringTemplateEngine();

    public EmailRenderer() {
        ClassLoaderTemplateResolver resolver = new ClassLoaderTemplateResolver();
        resolver.setPrefix("templates/email/");
        resolver.setCharacterEncoding(StandardCharsets.UTF_8.name());
        resolver.setTemplateMode(TemplateMode.HTML);
        resolver.getTextTemplateModePatternSpec().addPattern("*.txt");
        resolver.setCacheable(true);
        engine.setTemplateResolver(resolver);
    }

    /** The HTML part of template {@code name}. */
    public String html(String name, Map<String, Object> variables) {
        return engine.process(name + ".html", context(variables));
    }

    /** The plain-text part of template {@code name}. */
    public String text(String name, Map<String, Object> variables) {
        return engine.process(name + ".txt", context(variables));
    }

    private static Context context(Map<String, Object> variables) {
        return new Context(Locale.ENGLISH, variables);
    }
}
