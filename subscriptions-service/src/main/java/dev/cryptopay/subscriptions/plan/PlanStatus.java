package dev.cryptopay.subscriptions.plan;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** {@code active} plans accept new subscribers; {@code deprecated} ones do not (existing subscribers go on). */
public enum PlanStatus {
    ACTIVE,
    DEPRECATED;

    public static final List<String> WIRE_NAMES =
            Arrays.stream(values()).map(PlanStatus::wireName).toList();

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static PlanStatus fromWireName(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
