/** A service's part of the API description, served for the gateway to merge. */
package dev.cryptopay.service.apidocs;
