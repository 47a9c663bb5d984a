/** Database helpers every service shares. */
package dev.cryptopay.service.db;
