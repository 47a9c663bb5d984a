/**
 * The local stack launcher's API ({@link dev.cryptopay.deploy.LocalStack}, {@link dev.cryptopay.deploy.StackOptions})
 * and the orchestration that starts and stops a run; the signed-request shell tool.
 */
package dev.cryptopay.deploy;
