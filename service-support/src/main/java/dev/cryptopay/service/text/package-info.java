/** What text and numbers the databases can hold: bounds checked before anything is stored or computed. */
package dev.cryptopay.service.text;
