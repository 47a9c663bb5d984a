/** Field-by-field validation of JSON request bodies with one readable error per bad field. */
package dev.cryptopay.service.json;
