/**
 * A customer's subscription to a plan: the subscriber the merchant invites, the link its wallet enrols, the periods
 * it pays and every move of either. One feature, because each move of one moves the other: enrolment activates the
 * subscriber, cancelling stops the link's billing, a miss may cancel the subscriber.
 */
package dev.cryptopay.subscriptions.subscription;
