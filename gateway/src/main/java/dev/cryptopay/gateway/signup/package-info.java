/**
 * Self-service sign-up ({@code POST /api/v1/signup}), when the operator turns it on: a new merchant with a test API
 * key bound to the public key it sends, and a test publishable key.
 */
package dev.cryptopay.gateway.signup;
