/**
 * Reading requests: JSON bodies by declared field specs ({@link dev.cryptopay.service.request.Field}), list query
 * strings ({@link dev.cryptopay.service.request.ListQuery}), and the problems they collect.
 */
package dev.cryptopay.service.request;
