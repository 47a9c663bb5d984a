/** What the services add in front of Spring Boot's actuator routes. */
package dev.cryptopay.service.actuator;
