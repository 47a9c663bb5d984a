/** What the local stack prints for the person at the terminal: progress lines, the summary, paths and log tails. */
package dev.cryptopay.deploy.console;
