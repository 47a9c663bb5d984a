package dev.cryptopay.gateway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.gateway.admin.CommandLineBootstrapTest.CliResult;
import dev.cryptopay.gateway.support.GatewayTestBase;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The operator lists, approves and rejects production access requests on the command line. */
class ProductionAccessCommandLineTest extends GatewayTestBase {

    @Test
    void listsApprovesAndRejectsRequests() {
        MerchantKey approvedOne = admin.newMerchantKey();
        MerchantKey rejectedOne = admin.newMerchantKey();
        String approve = ask(approvedOne, "Coffee beans");
        String reject = ask(rejectedOne, "Unclear things");

        CliResult pending = CommandLineBootstrapTest.cli("list-production-access");
        assertThat(pending.status()).as(pending.err()).isZero();
        assertThat(pending.out()).contains(approve, reject, "Coffee beans", "pending request(s)");

        CliResult approved = CommandLineBootstrapTest.cli("approve-production-access", "--request", approve);
        assertThat(approved.status()).as(approved.err()).isZero();
        assertThat(approved.out()).contains(approve, "is approved");
        CliResult rejected = CommandLineBootstrapTest.cli(
                "reject-production-access", "--request", reject, "--reason", "Tell us what you sell");
        assertThat(rejected.status()).as(rejected.err()).isZero();
        assertThat(rejected.out()).contains("is rejected (Tell us what you sell)");

        assertThat(status(approvedOne)).isEqualTo("approved");
        assertThat(status(rejectedOne)).isEqualTo("rejected");
        assertThat(CommandLineBootstrapTest.cli("list-production-access", "--status", "approved")
                        .out())
                .contains(approve)
                .doesNotContain(reject);

        CliResult refused = CommandLineBootstrapTest.cli("approve-production-access", "--request", reject);
        assertThat(refused.status()).isEqualTo(AdminCli.FAILED);
        assertThat(refused.err()).contains("already rejected");
        assertThat(CommandLineBootstrapTest.cli("approve-production-access").status())
                .isEqualTo(AdminCli.USAGE);
        assertThat(CommandLineBootstrapTest.cli("list-production-access", "--status", "maybe")
                        .status())
                .isEqualTo(AdminCli.FAILED);
    }

    private String ask(MerchantKey key, String useCase) {
        return json(SignedRequest.of("POST", "/account/production_access")
                        .body("{\"use_case\":\"" + useCase + "\"}")
                        .send(client, baseUrl(), key)
                        .expectStatus()
                        .isCreated())
                .get("id")
                .asString();
    }

    private String status(MerchantKey key) {
        JsonNode access = json(SignedRequest.of("GET", "/account/production_access")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk());
        return access.get("status").asString();
    }
}
