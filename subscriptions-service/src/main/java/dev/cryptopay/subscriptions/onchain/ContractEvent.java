package dev.cryptopay.subscriptions.onchain;

import dev.cryptopay.service.text.Storable;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.web3j.abi.EventEncoder;
import org.web3j.abi.FunctionReturnDecoder;
import org.web3j.abi.TypeReference;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Event;
import org.web3j.abi.datatypes.Type;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.abi.datatypes.generated.Uint32;
import org.web3j.abi.datatypes.generated.Uint64;
import org.web3j.abi.datatypes.generated.Uint8;
import org.web3j.utils.Numeric;

/**
 * The subscription contract's events the service acts on, decoded from a log with the contract's pinned event
 * signatures. Subscription ids, plan ids and refs are 0x-hex (lower-case); addresses lower-case.
 */
public sealed interface ContractEvent {

    /** The subscription the event is about; null for {@link PlanRevoked}. */
    String subscriptionId();

    record Subscribed(
            String subscriptionId,
            String planId,
            String subscriber,
            String merchant,
            String token,
            String destination,
            BigInteger amount,
            Instant firstDue,
            Instant endsAt,
            String ref)
            implements ContractEvent {}

    record Charged(
            String subscriptionId,
            String planId,
            String subscriber,
            Instant periodStart,
            long paidPeriods,
            BigInteger amount)
            implements ContractEvent {}

    record Missed(
            String subscriptionId,
            String planId,
            String subscriber,
            Instant firstPeriodStart,
            long periods,
            long missedInRow)
            implements ContractEvent {}

    /** {@code reason}: 0 the subscriber, 1 the merchant (or its plan revoked), 2 automatically, 3 ended. */
    record Cancelled(String subscriptionId, String planId, String subscriber, String by, int reason)
            implements ContractEvent {}

    record PlanRevoked(String merchant, String planId) implements ContractEvent {
        @Override
        public String subscriptionId() {
            return null;
        }
    }

    Event SUBSCRIBED = new Event(
            "Subscribed",
            List.of(
                    new TypeReference<Bytes32>(true) {},
                    new TypeReference<Bytes32>(true) {},
                    new TypeReference<Address>(true) {},
                    new TypeReference<Address>() {},
                    new TypeReference<Address>() {},
                    new TypeReference<Address>() {},
                    new TypeReference<Uint256>() {},
                    new TypeReference<Uint64>() {},
                    new TypeReference<Uint64>() {},
                    new TypeReference<Bytes32>() {}));
    Event CHARGED = new Event(
            "Charged",
            List.of(
                    new TypeReference<Bytes32>(true) {},
                    new TypeReference<Bytes32>(true) {},
                    new TypeReference<Address>(true) {},
                    new TypeReference<Uint64>() {},
                    new TypeReference<Uint64>() {},
                    new TypeReference<Uint256>() {}));
    Event MISSED = new Event(
            "Missed",
            List.of(
                    new TypeReference<Bytes32>(true) {},
                    new TypeReference<Bytes32>(true) {},
                    new TypeReference<Address>(true) {},
                    new TypeReference<Uint64>() {},
                    new TypeReference<Uint32>() {},
                    new TypeReference<Uint32>() {}));
    Event CANCELLED = new Event(
            "Cancelled",
            List.of(
                    new TypeReference<Bytes32>(true) {},
                    new TypeReference<Bytes32>(true) {},
                    new TypeReference<Address>(true) {},
                    new TypeReference<Address>() {},
                    new TypeReference<Uint8>() {}));
    Event PLAN_REVOKED =
            new Event("PlanRevoked", List.of(new TypeReference<Address>(true) {}, new TypeReference<Bytes32>(true) {}));

    /** The events by topic 0. */
    Map<String, Event> BY_TOPIC = List.of(SUBSCRIBED, CHARGED, MISSED, CANCELLED, PLAN_REVOKED).stream()
            .collect(Collectors.toUnmodifiableMap(EventEncoder::encode, Function.identity()));

    /**
     * The event in a log; empty for another event of the contract (e.g. a currency token set) or a log whose
     * topics or data do not have its shape.
     */
    static Optional<ContractEvent> decode(ChainLog log) {
        Event event = BY_TOPIC.get(log.topic0());
        if (event == null
                || log.topics().size() != 1 + event.getIndexedParameters().size()) {
            return Optional.empty();
        }
        List<Type> values;
        try {
            values = FunctionReturnDecoder.decode(log.data(), event.getNonIndexedParameters());
        } catch (RuntimeException malformed) {
            return Optional.empty();
        }
        if (values.size() != event.getNonIndexedParameters().size()) {
            return Optional.empty();
        }
        List<String> topics = log.topics();
        if (event == SUBSCRIBED) {
            return Optional.of(new Subscribed(
                    topics.get(1),
                    topics.get(2),
                    address(topics.get(3)),
                    address(values.get(0)),
                    address(values.get(1)),
                    address(values.get(2)),
                    number(values.get(3)),
                    time(values.get(4)),
                    number(values.get(5)).signum() == 0 ? null : time(values.get(5)), // 0: no end
                    Numeric.toHexString((byte[]) values.get(6).getValue())));
        }
        if (event == CHARGED) {
            return Optional.of(new Charged(
                    topics.get(1),
                    topics.get(2),
                    address(topics.get(3)),
                    time(values.get(0)),
                    number(values.get(1)).longValueExact(),
                    number(values.get(2))));
        }
        if (event == MISSED) {
            return Optional.of(new Missed(
                    topics.get(1),
                    topics.get(2),
                    address(topics.get(3)),
                    time(values.get(0)),
                    number(values.get(1)).longValueExact(),
                    number(values.get(2)).longValueExact()));
        }
        if (event == CANCELLED) {
            return Optional.of(new Cancelled(
                    topics.get(1),
                    topics.get(2),
                    address(topics.get(3)),
                    address(values.get(0)),
                    number(values.get(1)).intValueExact()));
        }
        return Optional.of(new PlanRevoked(address(topics.get(1)), topics.get(2)));
    }

    private static BigInteger number(Type<?> value) {
        return (BigInteger) value.getValue();
    }

    /** Chain times are seconds; null for a time past what the database stores (year 9999), which never comes. */
    private static Instant time(Type<?> value) {
        BigInteger seconds = number(value);
        if (seconds.bitLength() > 40) {
            return null;
        }
        Instant time = Instant.ofEpochSecond(seconds.longValueExact());
        return Storable.inRange(time) ? time : null;
    }

    private static String address(Type<?> value) {
        return value.toString().toLowerCase(Locale.ROOT);
    }

    private static String address(String topic) {
        String hex = Numeric.cleanHexPrefix(topic);
        return "0x" + hex.substring(hex.length() - 40).toLowerCase(Locale.ROOT);
    }
}
