/** Auto-configuration that plugs the shared plumbing into any service that depends on this library. */
package dev.cryptopay.service.config;
