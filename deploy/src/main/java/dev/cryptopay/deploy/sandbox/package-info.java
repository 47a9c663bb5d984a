/** The sandbox wallet the stack makes once and registers as the sandbox merchant's receiving key. */
package dev.cryptopay.deploy.sandbox;
