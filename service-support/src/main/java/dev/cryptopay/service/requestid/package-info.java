/** Request ids: accepted from the gateway or generated, echoed on the response, attached to errors and logs. */
package dev.cryptopay.service.requestid;
