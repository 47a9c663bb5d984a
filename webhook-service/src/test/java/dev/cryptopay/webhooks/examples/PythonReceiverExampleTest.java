package dev.cryptopay.webhooks.examples;

/**
 * {@code examples/python/verify_webhook.py}, run with {@code python3} on a delivery the running service signed. Python
 * 3.8 or later is required (CI installs it when missing): without it this test fails, it never skips.
 */
class PythonReceiverExampleTest extends CliReceiverExampleTest {

    @Override
    String interpreter() {
        return present("python3", "Python 3.8 or later");
    }

    @Override
    String script() {
        return "python/verify_webhook.py";
    }
}
