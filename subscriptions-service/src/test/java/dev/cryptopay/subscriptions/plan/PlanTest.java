package dev.cryptopay.subscriptions.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.service.events.Transition;
import dev.cryptopay.service.request.Patch;
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

        Transition<Plan> deprecation = plan.deprecate(LATER);
        Plan deprecated = deprecation.state();
        assertThat(deprecation.changed()).isTrue();
        assertThat(deprecation.emits()).as("plans emit no events").isFalse();
        assertThat(deprecated.status()).isEqualTo(PlanStatus.DEPRECATED);
        assertThat(deprecated.deprecatedAt()).isEqualTo(LATER);
        assertThat(deprecated.updatedAt()).isEqualTo(LATER);
        assertThat(deprecated.acceptsSubscribers()).isFalse();
        Transition<Plan> again = deprecated.deprecate(LATER.plusSeconds(60));
        assertThat(again.changed()).as("deprecating again changes nothing").isFalse();
        assertThat(again.state()).as("deprecating again keeps the first time").isSameAs(deprecated);

        Plan active = deprecated
                .update(
                        new PlanUpdate(Patch.absent(), Patch.absent(), Patch.of(PlanStatus.ACTIVE)),
                        LATER.plusSeconds(120))
                .state();
        assertThat(active.acceptsSubscribers()).isTrue();
        assertThat(active.deprecatedAt()).isNull();
    }

    @Test
    void updatesChangeOnlyUnsignedDetails() {
        Plan plan = plan();
        Transition<Plan> renaming =
                plan.update(new PlanUpdate(Patch.of("Gold"), Patch.of("ipfs://meta"), Patch.absent()), LATER);
        Plan renamed = renaming.state();
        assertThat(renaming.changed()).isTrue();
        assertThat(renamed.name()).isEqualTo("Gold");
        assertThat(renamed.metadataUri()).isEqualTo("ipfs://meta");
        assertThat(renamed.terms()).isEqualTo(plan.terms());
        assertThat(renamed.digest()).isEqualTo(plan.digest());
        assertThat(renamed.updatedAt()).isEqualTo(LATER);
        Transition<Plan> nothing = plan.update(new PlanUpdate(Patch.absent(), Patch.absent(), Patch.absent()), LATER);
        assertThat(nothing.changed()).as("nothing to change").isFalse();
        assertThat(nothing.state()).isSameAs(plan);
        Transition<Plan> same =
                plan.update(new PlanUpdate(Patch.of("Pro"), Patch.absent(), Patch.of(PlanStatus.ACTIVE)), LATER);
        assertThat(same.changed()).isFalse();
        assertThat(same.state()).isSameAs(plan);
    }

    @Test
    void anAbsentMemberKeepsItsValueAndNullClearsTheMetadataUri() {
        Plan described = plan().update(new PlanUpdate(Patch.absent(), Patch.of("ipfs://meta"), Patch.absent()), LATER)
                .state();
        Plan renamed = described
                .update(new PlanUpdate(Patch.of("Gold"), Patch.absent(), Patch.absent()), LATER.plusSeconds(1))
                .state();
        assertThat(renamed.metadataUri()).as("left out: kept").isEqualTo("ipfs://meta");
        Transition<Plan> cleared =
                renamed.update(new PlanUpdate(Patch.absent(), Patch.clear(), Patch.absent()), LATER.plusSeconds(2));
        assertThat(cleared.changed()).isTrue();
        assertThat(cleared.state().metadataUri()).as("null: removed").isNull();
        assertThat(cleared.state().name()).isEqualTo("Gold");
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
