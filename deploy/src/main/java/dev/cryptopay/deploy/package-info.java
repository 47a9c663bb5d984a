/**
 * The local stack launcher: its API ({@link dev.cryptopay.deploy.LocalStack}, {@link dev.cryptopay.deploy.StackOptions}),
 * what starts and stops a run, and the launcher jar's other tools (signed-request, dev-pay, the compose dev chain's
 * set-up).
 */
package dev.cryptopay.deploy;
