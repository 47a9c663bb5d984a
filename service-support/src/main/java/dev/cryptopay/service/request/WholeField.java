package dev.cryptopay.service.request;

import dev.cryptopay.service.money.Amounts;
import java.math.BigDecimal;
import tools.jackson.databind.JsonNode;

/** A whole JSON number within {@code min..max} (2.0 is accepted, 2.5 is not); default 0..Integer.MAX_VALUE. */
public final class WholeField extends Field<Integer, WholeField> {

    private long min = 0;
    private long max = Integer.MAX_VALUE;

    WholeField(String name) {
        super(name);
    }

    public WholeField range(long min, long max) {
        declaring();
        this.min = min;
        this.max = max;
        return this;
    }

    @Override
    Integer convert(JsonNode value, String path, Violations violations) {
        if (!value.isNumber()) {
            return reject(violations, path, path + " must be a number");
        }
        BigDecimal number = value.decimalValue();
        if (Amounts.integerDigits(number) > 19) {
            return reject(violations, path, rangeMessage(path));
        }
        BigDecimal integral = Amounts.normalize(number);
        if (integral.scale() > 0) {
            return reject(violations, path, path + " must be an integer");
        }
        if (integral.compareTo(BigDecimal.valueOf(min)) < 0 || integral.compareTo(BigDecimal.valueOf(max)) > 0) {
            return reject(violations, path, rangeMessage(path));
        }
        return integral.intValueExact();
    }

    private String rangeMessage(String path) {
        return min == 1 && max == Integer.MAX_VALUE
                ? path + " must be greater than 0"
                : path + " must be between " + min + " and " + max;
    }
}
