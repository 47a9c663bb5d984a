package dev.cryptopay.service.events;

import java.time.Instant;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * The next pull of an active subscription, as the chain will make it: {@code notify.next_payment} on subscription
 * events, from which notification-service schedules the reminder before it and reads, at that moment, whether the
 * wallet's balance and allowance cover it.
 *
 * @param at when the period falls due (chain time)
 * @param amount what it bills, in token units, plain notation ({@code "10"})
 * @param amountBaseUnits the same in the token's base units ({@code "10000000"})
 * @param decimals the token's decimals
 * @param wallet the subscriber's wallet the contract pulls from
 * @param chainId the plan's network
 * @param tokenContract the ERC-20 the plan bills in
 * @param spender the subscription contract, which the wallet's allowance must let spend the amount
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record NextPayment(
        Instant at,
        String amount,
        String amountBaseUnits,
        int decimals,
        String wallet,
        long chainId,
        String tokenContract,
        String spender) {}
