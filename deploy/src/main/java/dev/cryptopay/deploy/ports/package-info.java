/** Which ports a stack run listens on, and who holds a port it needs (Linux {@code /proc}). */
package dev.cryptopay.deploy.ports;
