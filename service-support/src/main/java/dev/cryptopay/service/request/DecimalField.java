package dev.cryptopay.service.request;

import dev.cryptopay.service.money.Amounts;
import java.math.BigDecimal;
import tools.jackson.databind.JsonNode;

/**
 * An exact decimal amount: a JSON number (never a numeric string) with at most 18 fractional and 20 integer
 * digits (what {@code NUMERIC(38,18)} holds), positive unless {@link #allowZero()}. Read without trailing zeros.
 */
public final class DecimalField extends Field<BigDecimal, DecimalField> {

    private boolean allowZero;

    DecimalField(String name) {
        super(name);
    }

    public DecimalField allowZero() {
        declaring();
        this.allowZero = true;
        return this;
    }

    @Override
    BigDecimal convert(JsonNode value, String path, Violations violations) {
        if (!value.isNumber()) {
            return reject(violations, path, path + " must be a number");
        }
        BigDecimal number = value.decimalValue();
        // Judged before any arithmetic: normalising 1e100000000 would build a hundred-million-digit number.
        if (Amounts.integerDigits(number) > 20) {
            return number.signum() < 0
                    ? reject(violations, path, negativeMessage(path))
                    : reject(violations, path, path + " is too large");
        }
        number = Amounts.normalize(number);
        if (allowZero ? number.signum() < 0 : number.signum() <= 0) {
            return reject(violations, path, negativeMessage(path));
        }
        if (number.scale() > 18) {
            return reject(violations, path, path + " must have at most 18 decimal places");
        }
        return number;
    }

    private String negativeMessage(String path) {
        return path + (allowZero ? " must not be negative" : " must be greater than 0");
    }
}
