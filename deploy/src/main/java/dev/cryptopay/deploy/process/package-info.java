/** Each service as its own {@code java -jar} process: started from a jar snapshot, watched, stopped, never orphaned. */
package dev.cryptopay.deploy.process;
