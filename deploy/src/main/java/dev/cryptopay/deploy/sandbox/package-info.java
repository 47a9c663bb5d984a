/** The sandbox merchant the stack creates once and reuses, through the gateway's admin API. */
package dev.cryptopay.deploy.sandbox;
