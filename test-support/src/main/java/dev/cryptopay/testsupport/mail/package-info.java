/** A real SMTP server (GreenMail) in the test JVM, to receive and read the e-mails the suite sends. */
package dev.cryptopay.testsupport.mail;
