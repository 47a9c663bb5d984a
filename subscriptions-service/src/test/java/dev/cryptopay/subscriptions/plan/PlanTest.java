package dev.cryptopay.subscriptions.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import java.math.BigInteger;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The plan's own rules, without Spring or a database. */
class PlanTest {

    private static final Instant CREATED = Instant.parse("2026-01-01T00:00:00Z");
    private static final Instant LATER = Instant.parse("2026-02-01T00:00:00Z");

    @Test
    void deprecationStopsNewSubscribersAndCanBeUndone() {
        Plan plan = plan();
        assertThat(plan.acceptsSubscribers()).isTrue();

        Plan deprecated = plan.deprecate(LATER);
        assertThat(deprecated.status()).isEqualTo(PlanStatus.DEPRECATED);
        assertThat(deprecated.deprecatedAt()).isEqualTo(LATER);
        assertThat(deprecated.updatedAt()).isEqualTo(LATER);
        assertThat(deprecated.acceptsSubscribers()).isFalse();
        assertThat(deprecated.deprecate(LATER.plusSeconds(60)))
                .as("deprecating again keeps the first time")
                .isSameAs(deprecated);

        Plan active = deprecated.update(null, null, PlanStatus.ACTIVE, LATER.plusSeconds(120));
        assertThat(active.acceptsSubscribers()).isTrue();
        assertThat(active.deprecatedAt()).isNull();
    }

    @Test
    void updatesChangeOnlyUnsignedDetails() {
        Plan plan = plan();
        Plan renamed = plan.update("Gold", "ipfs://meta", null, LATER);
        assertThat(renamed.name()).isEqualTo("Gold");
        assertThat(renamed.metadataUri()).isEqualTo("ipfs://meta");
        assertThat(renamed.terms()).isEqualTo(plan.terms());
        assertThat(renamed.digest()).isEqualTo(plan.digest());
        assertThat(renamed.updatedAt()).isEqualTo(LATER);
        assertThat(plan.update(null, null, null, LATER)).as("nothing to change").isSameAs(plan);
        assertThat(plan.update("Pro", null, PlanStatus.ACTIVE, LATER)).isSameAs(plan);
    }

    @Test
    void theKindFollowsTheSignedPair() {
        assertThat(plan().kind()).isEqualTo("amount");
        PlanTerms byValue = new PlanTerms(
                "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
                "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
                Addresses.ZERO,
                BigInteger.ZERO,
                "USDC",
                "9.99",
                2592000,
                0,
                0,
                0,
                0,
                1);
        assertThat(byValue.byAmount()).isFalse();
    }

    @Test
    void addressesAreLowerCaseOrChecksummed() {
        assertThat(Addresses.isValid("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"))
                .isTrue();
        assertThat(Addresses.isValid("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"))
                .isTrue();
        assertThat(Addresses.isValid("0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266"))
                .isFalse();
        assertThat(Addresses.isValid("0xf39fd6e51aad88f6f4ce6ab8827279cfffb9226"))
                .isFalse();
        assertThat(Addresses.isValid("f39fd6e51aad88f6f4ce6ab8827279cfffb92266"))
                .isFalse();
        assertThat(Addresses.isValid("0xg39fd6e51aad88f6f4ce6ab8827279cfffb92266"))
                .isFalse();
        assertThat(Addresses.checksummed("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"))
                .isEqualTo("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    }

    private static Plan plan() {
        PlanTerms terms = new PlanTerms(
                "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
                "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
                "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
                BigInteger.TEN,
                "",
                "",
                2592000,
                0,
                0,
                0,
                0,
                0);
        return new Plan(
                UUID.randomUUID(),
                UUID.randomUUID(),
                Mode.TEST,
                UUID.randomUUID(),
                UUID.randomUUID(),
                terms,
                BigInteger.TEN,
                "0x01",
                "0x02",
                "0x03",
                false,
                Plan.SOURCE_API,
                "Pro",
                null,
                null,
                PlanStatus.ACTIVE,
                null,
                CREATED,
                CREATED);
    }
}
