package dev.cryptopay.gateway.signup;

import dev.cryptopay.gateway.keys.ResolvedKey;
import dev.cryptopay.gateway.routing.AnsweringFilter;
import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.TextField;
import dev.cryptopay.service.request.Violations;
import java.util.UUID;
import java.util.regex.Pattern;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code POST /api/v1/signup} (public; only routed when {@code gateway.signup.enabled}): {@code {name, email,
 * public_key}} → 201 {@code {merchant_id, api_key, publishable_key, mode}}. Every refused field is named in the
 * problem's {@code errors}.
 */
public class SignupFilter extends AnsweringFilter {

    private static final TextField NAME = Field.string("name").required().length(1, 200);
    private static final Pattern EMAIL_SHAPE = Pattern.compile("[^@\\s]+@[^@\\s]+\\.[^@\\s]+");
    /** Surrounding spaces are dropped, as the admin API does. */
    private static final TextField EMAIL = Field.string("email")
            .required()
            .length(3, 320)
            .satisfying(text -> EMAIL_SHAPE.matcher(text.strip()).matches(), "must be a valid e-mail address");

    private static final TextField PUBLIC_KEY =
            Field.string("public_key").required().length(1, 16_384);

    private final Signup signup;

    public SignupFilter(Signup signup, JsonMapper json) {
        super(json);
        this.signup = signup;
    }

    /** The sign-up's answer; {@code api_key} is shown only here, the gateway keeps its hash. */
    record SignedUpBody(
            UUID merchantId, String name, String email, String apiKey, String publishableKey, String mode) {}

    @Override
    protected Mono<Answer> answer(ServerWebExchange exchange, ResolvedKey caller, byte[] body) {
        JsonNode request = jsonObject(body);
        Violations violations = new Violations();
        violations.rejectUnknown(request, "", Field.names(NAME, EMAIL, PUBLIC_KEY));
        String name = NAME.read(request, violations);
        String email = EMAIL.read(request, violations);
        String publicKey = PUBLIC_KEY.read(request, violations);
        violations.throwIfAny();
        return signup.signUp(name.strip(), email.strip(), publicKey)
                .map(done -> Answer.created(new SignedUpBody(
                        done.merchant().id(),
                        done.merchant().name(),
                        done.merchant().email(),
                        done.apiKey().value(),
                        done.publishableKey().value(),
                        done.apiKey().mode().wireName())));
    }
}
