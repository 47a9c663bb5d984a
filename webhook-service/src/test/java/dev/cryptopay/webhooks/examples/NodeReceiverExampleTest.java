package dev.cryptopay.webhooks.examples;

/**
 * {@code examples/node/verify-webhook.mjs}, run with {@code node} on a delivery the running service signed. Node.js is
 * required (CI has it): without it this test fails, it never skips.
 */
class NodeReceiverExampleTest extends CliReceiverExampleTest {

    @Override
    String interpreter() {
        return present("node", "Node.js 18 or later");
    }

    @Override
    String script() {
        return "node/verify-webhook.mjs";
    }
}
