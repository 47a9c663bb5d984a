package dev.cryptopay.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The webhook views offer the event types from a list of their own ({@code webhooks.js}), as the API has no route
 * that lists them: it must be exactly webhook-service's catalogue, the {@code EventType} enum of its OpenAPI
 * description (which that service's own test keeps in step with what it accepts), each type once.
 */
class WebhookEventCatalogueTest {

    private static final Path CATALOGUE = Path.of("src", "main", "resources", "dashboard", "assets", "webhooks.js");
    private static final Path OPENAPI =
            Path.of("..", "webhook-service", "src", "main", "resources", "openapi", "webhooks.yaml");

    private static final Pattern OFFERED = Pattern.compile("\\[\"([a-z]+(?:\\.[a-z_]+)+)\", \"");
    private static final Pattern EVENT_TYPE_ENUM =
            Pattern.compile("\\n {4}EventType:\\n {6}type: string\\n {6}enum: \\[([^\\]]+)\\]");

    @Test
    void theViewsOfferExactlyTheEventTypesWebhookServiceDelivers() throws IOException {
        List<String> offered = new ArrayList<>();
        Matcher types = OFFERED.matcher(Files.readString(CATALOGUE));
        while (types.find()) {
            offered.add(types.group(1));
        }
        Matcher described = EVENT_TYPE_ENUM.matcher(Files.readString(OPENAPI));
        assertThat(described.find()).as("EventType in " + OPENAPI).isTrue();
        List<String> catalogue =
                Arrays.stream(described.group(1).split(",")).map(String::strip).toList();

        assertThat(catalogue).hasSizeGreaterThan(10).allMatch(type -> type.matches("[a-z]+(\\.[a-z_]+)+"));
        assertThat(offered).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(catalogue);
    }
}
