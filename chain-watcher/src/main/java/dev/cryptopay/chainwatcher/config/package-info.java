/** The chain watcher's settings: the chains to watch and where to report. */
package dev.cryptopay.chainwatcher.config;
