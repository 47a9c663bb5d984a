package dev.cryptopay.testsupport.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.FunctionReturnDecoder;
import org.web3j.abi.TypeReference;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Bool;
import org.web3j.abi.datatypes.DynamicBytes;
import org.web3j.abi.datatypes.DynamicStruct;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.Type;
import org.web3j.abi.datatypes.Utf8String;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.abi.datatypes.generated.Uint32;
import org.web3j.abi.datatypes.generated.Uint64;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Hash;
import org.web3j.crypto.Keys;
import org.web3j.crypto.Sign;
import org.web3j.crypto.StructuredDataEncoder;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;

/**
 * {@code dev-chain/contracts/CryptopaySubscriptions.sol} on a real node (anvil): its pinned interface, billing over
 * several periods with time moved on the chain, misses counted by time and auto-cancel, revocation, refused
 * signatures, value plans, fee-on-transfer tokens, gas starvation and a reorganised charge; and version 2's rules
 * (a short delivery refused, one subscription per wallet, plan and ref, bounded durations, destinations and ends, an
 * hour's grace, misses recorded before a cancel, an append-only currency registry).
 */
class SubscriptionContractTest {

    private static final DevChain CHAIN = DevChain.shared();
    private static final String CONTRACT = DevChain.SUBSCRIPTION_CONTRACT;
    private static final ECKeyPair MERCHANT_KEY = ECKeyPair.create(new BigInteger("c0ffee5eed", 16));
    private static final String MERCHANT = Keys.toChecksumAddress(Keys.getAddress(MERCHANT_KEY));
    private static final String DESTINATION = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
    private static final BigInteger PERIOD_AMOUNT = DevTokens.USDC.baseUnits("10");
    private static final long INTERVAL = 30 * 24 * 3600;
    private static final long GRACE = 3 * 24 * 3600;

    private static final String SUBSCRIBED =
            "Subscribed(bytes32,bytes32,address,address,address,address,uint256,uint64,uint64,bytes32)";
    private static final String CHARGED = "Charged(bytes32,bytes32,address,uint64,uint64,uint256)";
    private static final String MISSED = "Missed(bytes32,bytes32,address,uint64,uint32,uint32)";
    private static final String CANCELLED = "Cancelled(bytes32,bytes32,address,address,uint8)";

    private static int nonces = 1000;

    /** The pinned interface: wallets, indexers and the keeper compute these selectors and topics themselves. */
    @Test
    void theInterfaceIsTheOnePinned() {
        Plan plan = plan(DevTokens.USDC.address(), PERIOD_AMOUNT, 0, 0);
        String tuple = "(address,address,address,uint256,string,string,uint64,uint64,uint64,uint32,uint64,uint256)";
        assertThat(FunctionEncoder.encode(subscribeCall(plan, new byte[65], new byte[32], 0))
                        .substring(0, 10))
                .isEqualTo(selector("subscribe(" + tuple + ",bytes,bytes32,uint64)"));
        assertThat(FunctionEncoder.encode(collectCall(new byte[32])).substring(0, 10))
                .isEqualTo(selector("collect(bytes32)"));
        assertThat(FunctionEncoder.encode(new Function("planId", List.of(plan.struct()), List.of()))
                        .substring(0, 10))
                .isEqualTo(selector("planId(" + tuple + ")"));

        // planId is the EIP-712 struct hash and planDigest what eth_signTypedData_v4 signs, as web3j computes them.
        StructuredDataEncoder encoder = plan.encoder(DevChain.CHAIN_ID, CONTRACT);
        assertThat(bytes32(CONTRACT, new Function("planDigest", List.of(plan.struct()), bytes32Output())))
                .isEqualTo(encoder.hashStructuredData());
    }

    @Test
    void billsOnePeriodAtEachDueTimeAndAnyoneMayCollect() {
        String subscriber = fundedSubscriber(5, PERIOD_AMOUNT.multiply(BigInteger.valueOf(3)));
        Plan plan = plan(DevTokens.USDC.address(), PERIOD_AMOUNT, 0, 0);
        BigInteger before = CHAIN.tokenBalance(DevTokens.USDC, DESTINATION);

        TransactionReceipt subscribed = subscribe(subscriber, plan, sign(plan), ref("sub-1"), 0);
        Log event = only(subscribed, SUBSCRIBED);
        byte[] id = Numeric.hexStringToByteArray(event.getTopics().get(1));
        assertThat(event.getTopics().get(2)).isEqualTo(Numeric.toHexString(planId(plan)));
        assertThat(Numeric.toBigInt(event.getTopics().get(3))).isEqualTo(Numeric.toBigInt(subscriber));
        assertThat(only(subscribed, CHARGED))
                .as("no trial: the first period is pulled at once")
                .isNotNull();
        assertThat(CHAIN.tokenBalance(DevTokens.USDC, DESTINATION)).isEqualTo(before.add(PERIOD_AMOUNT));

        TransactionReceipt early = collect(CHAIN.accounts().get(9), id);
        assertThat(logs(early, CHARGED)).as("not due yet").isEmpty();

        CHAIN.increaseTime(INTERVAL);
        Log second = only(collect(CHAIN.accounts().get(9), id), CHARGED);
        assertThat(uint(second, 1)).as("paidPeriods").isEqualTo(2);
        assertThat(logs(collect(CHAIN.accounts().get(9), id), CHARGED))
                .as("one period per due time")
                .isEmpty();

        CHAIN.increaseTime(INTERVAL);
        assertThat(uint(only(collect(CHAIN.accounts().get(8), id), CHARGED), 1)).isEqualTo(3);
        assertThat(CHAIN.tokenBalance(DevTokens.USDC, DESTINATION))
                .isEqualTo(before.add(PERIOD_AMOUNT.multiply(BigInteger.valueOf(3))));
        Subscription state = subscription(id);
        assertThat(state.paidPeriods()).isEqualTo(3);
        assertThat(state.active()).isTrue();
    }

    @Test
    void aTooSmallAllowanceIsMissedByTimeAndCancelsAfterTheMissesInARow() {
        String subscriber = fundedSubscriber(6, PERIOD_AMOUNT);
        Plan plan = plan(DevTokens.USDC.address(), PERIOD_AMOUNT, 0, 2);
        byte[] id = subscriptionId(subscribe(subscriber, plan, sign(plan), ref("sub-2"), 0));
        // The allowance covered the first period only: the second cannot be pulled.
        CHAIN.increaseTime(INTERVAL);
        TransactionReceipt refused = collect(subscriber, id);
        assertThat(logs(refused, CHARGED)).isEmpty();
        assertThat(logs(refused, MISSED))
                .as("within the grace nothing is missed")
                .isEmpty();

        CHAIN.increaseTime(GRACE + 1);
        Log missed = only(collect(CHAIN.accounts().get(9), id), MISSED);
        assertThat(uint(missed, 1)).as("periods").isEqualTo(1);
        assertThat(uint(missed, 2)).as("missedInRow").isEqualTo(1);
        assertThat(subscription(id).active()).isTrue();

        CHAIN.increaseTime(INTERVAL);
        TransactionReceipt second = collect(CHAIN.accounts().get(9), id);
        assertThat(uint(only(second, MISSED), 2)).isEqualTo(2);
        Log cancelled = only(second, CANCELLED);
        assertThat(uint(cancelled, 1)).as("reason: auto-cancel").isEqualTo(2);
        assertThat(subscription(id).active()).isFalse();
        assertThatThrownBy(() -> collect(CHAIN.accounts().get(9), id)).hasMessageContaining("reverted");
    }

    @Test
    void manyMissedPeriodsAreCountedAtOnceWithoutLoops() {
        String subscriber = fundedSubscriber(7, PERIOD_AMOUNT);
        Plan plan = plan(DevTokens.USDC.address(), PERIOD_AMOUNT, 0, 0);
        byte[] id = subscriptionId(subscribe(subscriber, plan, sign(plan), ref("sub-3"), 0));
        CHAIN.increaseTime(INTERVAL * 1000);
        Log missed = only(collect(CHAIN.accounts().get(9), id), MISSED);
        assertThat(uint(missed, 1)).as("a thousand periods passed their grace").isEqualTo(999);
        assertThat(subscription(id).active()).as("auto-cancel 0: never").isTrue();
    }

    @Test
    void aSubscriberOrItsMerchantCancelsNobodyElse() {
        String subscriber = fundedSubscriber(5, PERIOD_AMOUNT);
        Plan plan = plan(DevTokens.USDC.address(), PERIOD_AMOUNT, 0, 0);
        byte[] id = subscriptionId(subscribe(subscriber, plan, sign(plan), ref("sub-4"), 0));
        assertThatThrownBy(() -> CHAIN.send(CHAIN.accounts().get(9), CONTRACT, cancelCall(id)))
                .hasMessageContaining("reverted");
        Log cancelled = only(receipt(CHAIN.send(subscriber, CONTRACT, cancelCall(id))), CANCELLED);
        assertThat(uint(cancelled, 1)).as("reason: the subscriber").isZero();
        assertThat(subscription(id).active()).isFalse();
    }

    @Test
    void aRevokedPlanTakesNoSubscriberAndEndsItsSubscriptionsAtTheirNextCollect() {
        String merchantAccount = CHAIN.accounts().get(4);
        Plan plan = plan(merchantAccount, DevTokens.USDC.address(), PERIOD_AMOUNT, 0, 0);
        String subscriber = fundedSubscriber(6, PERIOD_AMOUNT);
        byte[] signature = signWithAccount4(plan);
        byte[] id = subscriptionId(subscribe(subscriber, plan, signature, ref("sub-5"), 0));

        CHAIN.send(
                merchantAccount, CONTRACT, new Function("revokePlan", List.of(new Bytes32(planId(plan))), List.of()));
        String another = fundedSubscriber(7, PERIOD_AMOUNT);
        assertThatThrownBy(() -> subscribe(another, plan, signature, ref("sub-6"), 0))
                .hasMessageContaining("reverted");
        CHAIN.increaseTime(INTERVAL);
        Log cancelled = only(collect(CHAIN.accounts().get(9), id), CANCELLED);
        assertThat(uint(cancelled, 1)).as("reason: the merchant").isEqualTo(1);
    }

    @Test
    void refusesSignaturesOfOtherTermsChainsOrContractsAndHighS() {
        String subscriber = fundedSubscriber(8, PERIOD_AMOUNT.multiply(BigInteger.TEN));
        Plan plan = plan(DevTokens.USDC.address(), PERIOD_AMOUNT, 0, 0);
        Plan cheaper = new Plan(
                plan.merchant(),
                plan.destination(),
                plan.token(),
                BigInteger.ONE,
                "",
                "",
                INTERVAL,
                0,
                GRACE,
                0,
                0,
                plan.planNonce());
        assertThatThrownBy(() -> subscribe(subscriber, cheaper, sign(plan), ref("x"), 0))
                .as("a signature of other terms")
                .hasMessageContaining("reverted");
        assertThatThrownBy(() -> subscribe(subscriber, plan, sign(plan, 1, CONTRACT), ref("x"), 0))
                .as("signed for chain 1")
                .hasMessageContaining("reverted");
        assertThatThrownBy(() -> subscribe(subscriber, plan, sign(plan, DevChain.CHAIN_ID, DESTINATION), ref("x"), 0))
                .as("signed for another contract")
                .hasMessageContaining("reverted");
        assertThatThrownBy(() -> subscribe(subscriber, plan, highS(sign(plan)), ref("x"), 0))
                .as("the same signature in its high-s form")
                .hasMessageContaining("reverted");
        assertThat(subscribe(subscriber, plan, sign(plan), ref("x"), 0).isStatusOK())
                .isTrue();
    }

    @Test
    void aValuePlanBillsItsValueInTheCurrencysToken() {
        String subscriber = fundedSubscriber(9, DevTokens.USDC.baseUnits("9.99"));
        Plan plan = new Plan(
                MERCHANT,
                DESTINATION,
                Address.DEFAULT.getValue(),
                BigInteger.ZERO,
                "USDC",
                "9.99",
                INTERVAL,
                0,
                GRACE,
                0,
                0,
                BigInteger.valueOf(nonces++));
        Log subscribed = only(subscribe(subscriber, plan, sign(plan), ref("v"), 0), SUBSCRIBED);
        assertThat(uint(subscribed, 3)).as("amount: 9.99 USDC in base units").isEqualTo(9_990_000);
        Plan unknown = new Plan(
                MERCHANT,
                DESTINATION,
                Address.DEFAULT.getValue(),
                BigInteger.ZERO,
                "EUR",
                "5",
                INTERVAL,
                0,
                GRACE,
                0,
                0,
                BigInteger.valueOf(nonces++));
        assertThatThrownBy(() -> subscribe(subscriber, unknown, sign(unknown), ref("v"), 0))
                .hasMessageContaining("reverted");
    }

    @Test
    void refusesATokenThatDeliversLessThanTheAmount() {
        String deployer = CHAIN.accounts().get(9);
        String feeToken = CHAIN.deploy(deployer, "FeeOnTransferToken", "");
        String subscriber = CHAIN.accounts().get(7);
        CHAIN.send(deployer, feeToken, mintCall(subscriber, PERIOD_AMOUNT));
        CHAIN.send(subscriber, feeToken, approveCall(PERIOD_AMOUNT));
        Plan plan = plan(feeToken, PERIOD_AMOUNT, 0, 0);
        assertThatThrownBy(() -> subscribe(subscriber, plan, sign(plan), ref("fee"), 0))
                .hasMessageContaining("reverted");
    }

    @Test
    void aGasStarvedCollectChangesNothingAndCausesNoMiss() {
        String subscriber = fundedSubscriber(5, PERIOD_AMOUNT.multiply(BigInteger.TWO));
        Plan plan = plan(DevTokens.USDC.address(), PERIOD_AMOUNT, 0, 1);
        byte[] id = subscriptionId(subscribe(subscriber, plan, sign(plan), ref("gas"), 0));
        CHAIN.increaseTime(INTERVAL);
        Subscription due = subscription(id);
        int starved = 0;
        int charged = 0;
        // Every limit from far too little to enough: each collect either pays the period or changes nothing.
        for (int gas = 30_000; gas <= 150_000; gas += 2_500) {
            String snapshot = CHAIN.snapshot();
            TransactionReceipt receipt =
                    CHAIN.sendWithGas(CHAIN.accounts().get(9), CONTRACT, collectCall(id), BigInteger.valueOf(gas));
            assertThat(logs(receipt, MISSED)).as("gas %d", gas).isEmpty();
            assertThat(logs(receipt, CANCELLED)).as("gas %d", gas).isEmpty();
            if (logs(receipt, CHARGED).isEmpty()) {
                starved++;
                assertThat(subscription(id)).as("gas %d: nothing changed", gas).isEqualTo(due);
            } else {
                charged++;
            }
            CHAIN.revert(snapshot);
        }
        assertThat(starved).as("the sweep starts below what a collect needs").isPositive();
        assertThat(charged).as("and ends above it").isPositive();
        assertThat(only(collect(CHAIN.accounts().get(9), id), CHARGED)).isNotNull();
    }

    @Test
    void aReorganisedChargeIsCollectedAgainForTheSamePeriod() {
        try (DevChain own = new DevChain().start()) {
            String subscriber = own.accounts().get(5);
            own.mint(DevTokens.USDC, subscriber, PERIOD_AMOUNT.multiply(BigInteger.TWO));
            own.send(subscriber, DevTokens.USDC.address(), approveCall(PERIOD_AMOUNT.multiply(BigInteger.TWO)));
            Plan plan = plan(DevTokens.USDC.address(), PERIOD_AMOUNT, 0, 0);
            byte[] id = subscriptionId(
                    own.receipt(own.send(subscriber, CONTRACT, subscribeCall(plan, sign(plan), ref("reorg"), 0)))
                            .orElseThrow());
            own.increaseTime(INTERVAL);
            Log first = only(
                    own.receipt(own.send(own.accounts().get(9), CONTRACT, collectCall(id)))
                            .orElseThrow(),
                    CHARGED);
            own.reorg(1);
            own.increaseTime(60); // replacement blocks take the fork point's time: move past the due time again
            Log again = only(
                    own.receipt(own.send(own.accounts().get(9), CONTRACT, collectCall(id)))
                            .orElseThrow(),
                    CHARGED);
            assertThat(uint(again, 0))
                    .as("the same period start: an indexer keyed by it counts it once")
                    .isEqualTo(uint(first, 0));
            assertThat(uint(again, 1)).as("paidPeriods").isEqualTo(2);
        }
    }

    // ---- version 2: the audit's findings ------------------------------------------------------------------------

    @Test
    void aShortDeliveryIsARefusedPullAndTheMissesBeforeItStayRecorded() {
        String deployer = CHAIN.accounts().get(9);
        String feeToken = CHAIN.deploy(deployer, "FeeOnTransferToken", "");
        String subscriber = CHAIN.accounts().get(7);
        CHAIN.send(deployer, feeToken, mintCall(subscriber, PERIOD_AMOUNT.multiply(BigInteger.TEN)));
        CHAIN.send(subscriber, feeToken, approveCall(PERIOD_AMOUNT.multiply(BigInteger.TEN)));
        Plan plan = plan(feeToken, PERIOD_AMOUNT, 3600, 0); // a trial: subscribing pulls nothing
        byte[] id = subscriptionId(subscribe(subscriber, plan, sign(plan), ref("short"), 0));

        CHAIN.increaseTime(3600 + INTERVAL + 1); // the first period passed its grace, the second is due
        TransactionReceipt collected = collect(CHAIN.accounts().get(9), id);
        assertThat(collected.isStatusOK()).as("no revert: the pull is refused").isTrue();
        assertThat(uint(only(collected, MISSED), 1))
                .as("the missed period, recorded")
                .isEqualTo(1);
        assertThat(logs(collected, CHARGED)).isEmpty();
        Subscription after = subscription(id);
        assertThat(after.active()).isTrue();
        assertThat(after.paidPeriods()).isZero();
    }

    @Test
    void oneSubscriptionPerWalletPlanAndRefWithAnIdDerivedFromThem() {
        String subscriber = fundedSubscriber(5, PERIOD_AMOUNT.multiply(BigInteger.valueOf(3)));
        Plan plan = plan(DevTokens.USDC.address(), PERIOD_AMOUNT, 0, 0);
        byte[] ref = ref("double-click");
        byte[] id = subscriptionId(subscribe(subscriber, plan, sign(plan), ref, 0));
        assertThat(id)
                .as("keccak256(chain id, contract, plan id, subscriber, ref)")
                .isEqualTo(Hash.sha3(Numeric.hexStringToByteArray(FunctionEncoder.encodeConstructor(List.of(
                        new Uint256(DevChain.CHAIN_ID),
                        new Address(CONTRACT),
                        new Bytes32(planId(plan)),
                        new Address(subscriber),
                        new Bytes32(ref))))));
        assertThatThrownBy(() -> subscribe(subscriber, plan, sign(plan), ref, 0))
                .as("the same wallet, plan and ref again: a double click bills once")
                .hasMessageContaining("reverted");
        assertThat(subscribe(subscriber, plan, sign(plan), ref("another-invitation"), 0)
                        .isStatusOK())
                .as("another ref is another subscription")
                .isTrue();
    }

    @Test
    void durationsDestinationsAndEndsOutsideTheRulesAreRefused() {
        String subscriber = fundedSubscriber(6, PERIOD_AMOUNT.multiply(BigInteger.TEN));
        long hundredYears = 3_155_760_000L; // 36,525 days, the service's bound too
        assertRefused(subscriber, terms(3599, 0, GRACE, DESTINATION), 0, "an interval under an hour");
        assertRefused(subscriber, terms(hundredYears + 1, 0, GRACE, DESTINATION), 0, "an interval over 100 years");
        assertRefused(subscriber, terms(INTERVAL, hundredYears + 1, GRACE, DESTINATION), 0, "a trial over 100 years");
        assertRefused(subscriber, terms(INTERVAL, 0, hundredYears + 1, DESTINATION), 0, "a grace over 100 years");
        assertRefused(subscriber, terms(INTERVAL, 0, GRACE, subscriber), 0, "paying itself");
        assertRefused(subscriber, terms(INTERVAL, 0, GRACE, CONTRACT), 0, "paying the contract");
        long now = headTime();
        assertRefused(subscriber, terms(INTERVAL, 7200, GRACE, DESTINATION), now + 3600, "an end inside the trial");
        assertRefused(
                subscriber, terms(INTERVAL, 0, GRACE, DESTINATION), now + hundredYears + 3600, "an end past 100 years");
        assertThat(subscribe(subscriber, terms(3600, 7200, 0, DESTINATION), refFor("ok"), now + 7200 + 3600)
                        .isStatusOK())
                .as("an hour's interval, an end after the trial")
                .isTrue();
    }

    @Test
    void theGraceIsAtLeastAnHour() {
        String subscriber = fundedSubscriber(7, PERIOD_AMOUNT);
        Plan plan = terms(INTERVAL, 0, 0, DESTINATION);
        byte[] id = subscriptionId(subscribe(subscriber, plan, refFor("grace"), 0));
        assertThat(subscription(id).grace()).isEqualTo(BigInteger.valueOf(3600));
    }

    @Test
    void aCancelAndARevokedPlansEndRecordTheMissesBeforeThem() {
        String subscriber = fundedSubscriber(8, PERIOD_AMOUNT); // the first period only
        Plan plan = plan(DevTokens.USDC.address(), PERIOD_AMOUNT, 0, 0);
        byte[] id = subscriptionId(subscribe(subscriber, plan, sign(plan), ref("cancel-misses"), 0));
        CHAIN.increaseTime(INTERVAL + GRACE + 1);
        TransactionReceipt cancelled = receipt(CHAIN.send(subscriber, CONTRACT, cancelCall(id)));
        assertThat(uint(only(cancelled, MISSED), 1)).isEqualTo(1);
        assertThat(uint(only(cancelled, CANCELLED), 1))
                .as("reason: the subscriber")
                .isZero();

        String merchantAccount = CHAIN.accounts().get(4);
        Plan revokedPlan = plan(merchantAccount, DevTokens.USDC.address(), PERIOD_AMOUNT, 0, 0);
        String other = fundedSubscriber(5, PERIOD_AMOUNT);
        byte[] revokedId =
                subscriptionId(subscribe(other, revokedPlan, signWithAccount4(revokedPlan), ref("revoked-misses"), 0));
        CHAIN.send(
                merchantAccount,
                CONTRACT,
                new Function("revokePlan", List.of(new Bytes32(planId(revokedPlan))), List.of()));
        CHAIN.increaseTime(INTERVAL + GRACE + 1);
        TransactionReceipt ended = collect(CHAIN.accounts().get(9), revokedId);
        assertThat(uint(only(ended, MISSED), 1)).isEqualTo(1);
        assertThat(uint(only(ended, CANCELLED), 1)).as("reason: the merchant").isEqualTo(1);
    }

    @Test
    void theCurrencyRegistryOnlyGrows() {
        String code = "TST" + nonces++;
        Function set = new Function(
                "setCurrencyToken", List.of(new Utf8String(code), new Address(DevTokens.USDC.address())), List.of());
        assertThat(receipt(CHAIN.send(DevChain.DEPLOYER, CONTRACT, set)).isStatusOK())
                .isTrue();
        Function repoint = new Function(
                "setCurrencyToken", List.of(new Utf8String(code), new Address(DevTokens.USDT.address())), List.of());
        assertThatThrownBy(() -> CHAIN.send(DevChain.DEPLOYER, CONTRACT, repoint))
                .as("a registered code is never re-pointed")
                .hasMessageContaining("reverted");
        Function usdc = new Function(
                "setCurrencyToken", List.of(new Utf8String("USDC"), new Address(DevTokens.USDT.address())), List.of());
        assertThatThrownBy(() -> CHAIN.send(DevChain.DEPLOYER, CONTRACT, usdc)).hasMessageContaining("reverted");
    }

    @Test
    void aUsdtLikeTokenTakesTheEnrolmentKitsApproveZeroThenTheNewAllowance() {
        String token = CHAIN.deploy(CHAIN.accounts().get(9), "ResetApprovalToken", "");
        String subscriber = CHAIN.accounts().get(6);
        CHAIN.send(subscriber, token, mintCall(subscriber, PERIOD_AMOUNT.multiply(BigInteger.TEN)));
        CHAIN.send(subscriber, token, approveCall(PERIOD_AMOUNT)); // what another subscription counts on
        BigInteger total = PERIOD_AMOUNT.add(PERIOD_AMOUNT.multiply(BigInteger.valueOf(3)));
        assertThatThrownBy(() -> CHAIN.send(subscriber, token, approveCall(total)))
                .as("like USDT: a non-zero allowance is not changed to another non-zero one")
                .hasMessageContaining("reverted");

        // The kit's sequence: approve(0), then the current allowance plus the periods, then subscribe.
        CHAIN.send(subscriber, token, approveCall(BigInteger.ZERO));
        CHAIN.send(subscriber, token, approveCall(total));
        Plan plan = plan(token, PERIOD_AMOUNT, 0, 0);
        assertThat(only(subscribe(subscriber, plan, sign(plan), ref("usdt-like"), 0), CHARGED))
                .as("the first period pulled")
                .isNotNull();
    }

    private static Plan terms(long interval, long trial, long maxArrears, String destination) {
        return new Plan(
                MERCHANT,
                destination,
                DevTokens.USDC.address(),
                PERIOD_AMOUNT,
                "",
                "",
                interval,
                trial,
                maxArrears,
                0,
                0,
                BigInteger.valueOf(nonces++));
    }

    private static byte[] refFor(String name) {
        return ref(name + "-" + nonces++);
    }

    private static TransactionReceipt subscribe(String from, Plan plan, byte[] ref, long endsAt) {
        return subscribe(from, plan, sign(plan), ref, endsAt);
    }

    private static void assertRefused(String subscriber, Plan plan, long endsAt, String what) {
        assertThatThrownBy(() -> subscribe(subscriber, plan, refFor("refused"), endsAt))
                .as(what)
                .hasMessageContaining("reverted");
    }

    private static long headTime() {
        try {
            return CHAIN.web3j()
                    .ethGetBlockByNumber(org.web3j.protocol.core.DefaultBlockParameterName.LATEST, false)
                    .send()
                    .getBlock()
                    .getTimestamp()
                    .longValueExact();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    // ---- the plan, signed ------------------------------------------------------------------------------------------

    /** §9's SubscriptionPlan. */
    record Plan(
            String merchant,
            String destination,
            String token,
            BigInteger amount,
            String currency,
            String value,
            long interval,
            long trialPeriod,
            long maxArrears,
            long autoCancelAfterMissed,
            long subscribeDeadline,
            BigInteger planNonce) {

        DynamicStruct struct() {
            return new DynamicStruct(
                    new Address(merchant),
                    new Address(destination),
                    new Address(token),
                    new Uint256(amount),
                    new Utf8String(currency),
                    new Utf8String(value),
                    new Uint64(interval),
                    new Uint64(trialPeriod),
                    new Uint64(maxArrears),
                    new Uint32(autoCancelAfterMissed),
                    new Uint64(subscribeDeadline),
                    new Uint256(planNonce));
        }

        StructuredDataEncoder encoder(long chainId, String contract) {
            String json = """
                    {"types":{"EIP712Domain":[{"name":"name","type":"string"},{"name":"version","type":"string"},
                    {"name":"chainId","type":"uint256"},{"name":"verifyingContract","type":"address"}],
                    "SubscriptionPlan":[{"name":"merchant","type":"address"},{"name":"destination","type":"address"},
                    {"name":"token","type":"address"},{"name":"amount","type":"uint256"},
                    {"name":"currency","type":"string"},{"name":"value","type":"string"},
                    {"name":"interval","type":"uint64"},{"name":"trialPeriod","type":"uint64"},
                    {"name":"maxArrears","type":"uint64"},{"name":"autoCancelAfterMissed","type":"uint32"},
                    {"name":"subscribeDeadline","type":"uint64"},{"name":"planNonce","type":"uint256"}]},
                    "primaryType":"SubscriptionPlan",
                    "domain":{"name":"Cryptopay Subscriptions","version":"1","chainId":%d,"verifyingContract":"%s"},
                    "message":{"merchant":"%s","destination":"%s","token":"%s","amount":"%s","currency":"%s",
                    "value":"%s","interval":"%d","trialPeriod":"%d","maxArrears":"%d","autoCancelAfterMissed":"%d",
                    "subscribeDeadline":"%d","planNonce":"%s"}}
                    """.formatted(
                            chainId,
                            contract,
                            merchant,
                            destination,
                            token,
                            amount,
                            currency,
                            value,
                            interval,
                            trialPeriod,
                            maxArrears,
                            autoCancelAfterMissed,
                            subscribeDeadline,
                            planNonce);
            try {
                return new StructuredDataEncoder(json);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    private static Plan plan(String token, BigInteger amount, long trial, long autoCancel) {
        return plan(MERCHANT, token, amount, trial, autoCancel);
    }

    private static Plan plan(String merchant, String token, BigInteger amount, long trial, long autoCancel) {
        return new Plan(
                merchant,
                DESTINATION,
                token,
                amount,
                "",
                "",
                INTERVAL,
                trial,
                GRACE,
                autoCancel,
                0,
                BigInteger.valueOf(nonces++));
    }

    private static byte[] sign(Plan plan) {
        return sign(plan, DevChain.CHAIN_ID, CONTRACT);
    }

    private static byte[] sign(Plan plan, long chainId, String contract) {
        return signDigest(plan.encoder(chainId, contract).hashStructuredData(), MERCHANT_KEY);
    }

    /** Dev account 4's well-known development key, for a merchant that sends transactions itself. */
    private static byte[] signWithAccount4(Plan plan) {
        ECKeyPair account4 = Credentials.create("0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a")
                .getEcKeyPair();
        return signDigest(plan.encoder(DevChain.CHAIN_ID, CONTRACT).hashStructuredData(), account4);
    }

    private static byte[] signDigest(byte[] digest, ECKeyPair key) {
        Sign.SignatureData signature = Sign.signMessage(digest, key, false);
        byte[] bytes = new byte[65];
        System.arraycopy(signature.getR(), 0, bytes, 0, 32);
        System.arraycopy(signature.getS(), 0, bytes, 32, 32);
        bytes[64] = signature.getV()[0];
        return bytes;
    }

    /** The same signature with s' = n - s and the other recovery id: as valid to ecrecover, refused by the contract. */
    private static byte[] highS(byte[] signature) {
        BigInteger s = Numeric.toBigInt(java.util.Arrays.copyOfRange(signature, 32, 64));
        byte[] flipped = signature.clone();
        System.arraycopy(Numeric.toBytesPadded(Sign.CURVE_PARAMS.getN().subtract(s), 32), 0, flipped, 32, 32);
        flipped[64] = (byte) (signature[64] == 27 ? 28 : 27);
        return flipped;
    }

    private static byte[] ref(String subscriberId) {
        return Hash.sha3(("cryptopay.subscriber:" + subscriberId).getBytes(StandardCharsets.UTF_8));
    }

    // ---- calls -----------------------------------------------------------------------------------------------------

    private static Function subscribeCall(Plan plan, byte[] signature, byte[] ref, long endsAt) {
        return new Function(
                "subscribe",
                List.of(plan.struct(), new DynamicBytes(signature), new Bytes32(ref), new Uint64(endsAt)),
                bytes32Output());
    }

    private static Function collectCall(byte[] id) {
        return new Function("collect", List.of(new Bytes32(id)), List.of(new TypeReference<Bool>() {}));
    }

    private static Function cancelCall(byte[] id) {
        return new Function("cancel", List.of(new Bytes32(id)), List.of());
    }

    private static Function approveCall(BigInteger amount) {
        return new Function("approve", List.of(new Address(CONTRACT), new Uint256(amount)), List.of());
    }

    private static Function mintCall(String to, BigInteger amount) {
        return new Function("mint", List.of(new Address(to), new Uint256(amount)), List.of());
    }

    private static List<TypeReference<?>> bytes32Output() {
        return List.of(new TypeReference<Bytes32>() {});
    }

    /** Dev account {@code index}, holding {@code amount} more USDC and approving exactly that to the contract. */
    private static String fundedSubscriber(int index, BigInteger amount) {
        String subscriber = CHAIN.accounts().get(index);
        CHAIN.mint(DevTokens.USDC, subscriber, amount);
        CHAIN.send(subscriber, DevTokens.USDC.address(), approveCall(amount));
        return subscriber;
    }

    private static TransactionReceipt subscribe(String from, Plan plan, byte[] signature, byte[] ref, long endsAt) {
        return receipt(CHAIN.send(from, CONTRACT, subscribeCall(plan, signature, ref, endsAt)));
    }

    private static TransactionReceipt collect(String from, byte[] id) {
        return receipt(CHAIN.send(from, CONTRACT, collectCall(id)));
    }

    private static TransactionReceipt receipt(String hash) {
        return CHAIN.receipt(hash).orElseThrow();
    }

    private static byte[] planId(Plan plan) {
        return bytes32(CONTRACT, new Function("planId", List.of(plan.struct()), bytes32Output()));
    }

    private static byte[] bytes32(String contract, Function view) {
        return (byte[]) CHAIN.call(contract, view).get(0).getValue();
    }

    /** getSubscription(id): a static struct, decoded member by member. */
    record Subscription(
            String planId,
            String subscriber,
            BigInteger nextDue,
            BigInteger paidPeriods,
            BigInteger missedInRow,
            BigInteger grace,
            boolean active) {}

    @SuppressWarnings("rawtypes")
    private static Subscription subscription(byte[] id) {
        List<TypeReference<?>> members = List.of(
                new TypeReference<Bytes32>() {},
                new TypeReference<Address>() {},
                new TypeReference<Address>() {},
                new TypeReference<Address>() {},
                new TypeReference<Address>() {},
                new TypeReference<Uint256>() {},
                new TypeReference<Uint64>() {},
                new TypeReference<Uint64>() {},
                new TypeReference<Uint32>() {},
                new TypeReference<Uint32>() {},
                new TypeReference<Uint64>() {},
                new TypeReference<Uint64>() {},
                new TypeReference<Uint64>() {},
                new TypeReference<Bool>() {});
        Function view = new Function("getSubscription", List.of(new Bytes32(id)), List.of());
        String result = CHAIN.callRaw(CONTRACT, FunctionEncoder.encode(view));
        @SuppressWarnings("unchecked")
        List<Type> values = FunctionReturnDecoder.decode(result, (List) members);
        return new Subscription(
                Numeric.toHexString((byte[]) values.get(0).getValue()),
                (String) values.get(1).getValue(),
                (BigInteger) values.get(10).getValue(),
                (BigInteger) values.get(12).getValue(),
                (BigInteger) values.get(9).getValue(),
                (BigInteger) values.get(7).getValue(),
                (Boolean) values.get(13).getValue());
    }

    // ---- events ----------------------------------------------------------------------------------------------------

    private static String selector(String signature) {
        return Hash.sha3String(signature).substring(0, 10);
    }

    private static List<Log> logs(TransactionReceipt receipt, String event) {
        String topic = Hash.sha3String(event);
        List<Log> found = new ArrayList<>();
        for (Log log : receipt.getLogs()) {
            if (log.getAddress().equalsIgnoreCase(CONTRACT)
                    && log.getTopics().get(0).equals(topic)) {
                found.add(log);
            }
        }
        return found;
    }

    private static Log only(TransactionReceipt receipt, String event) {
        List<Log> found = logs(receipt, event);
        assertThat(found).as(event).hasSize(1);
        return found.get(0);
    }

    private static byte[] subscriptionId(TransactionReceipt subscribed) {
        return Numeric.hexStringToByteArray(
                only(subscribed, SUBSCRIBED).getTopics().get(1));
    }

    /** The {@code index}-th 32-byte word of a log's data, as an unsigned integer. */
    private static long uint(Log log, int index) {
        String data = Numeric.cleanHexPrefix(log.getData());
        return new BigInteger(data.substring(index * 64, (index + 1) * 64), 16).longValueExact();
    }
}
