package dev.cryptopay.paymentlinks.paymentlink;

import java.math.BigDecimal;
import java.time.Instant;

/** A validated create request; absent optional fields are null. */
public record NewPaymentLink(
        String paymentName,
        String description,
        BigDecimal amount,
        String currency,
        Instant expiresAt,
        Integer maxUses,
        String customerId,
        String customerName,
        String customerEmail,
        String productName,
        String productDescription,
        String cart,
        String orderId,
        Boolean autoFill,
        String successUrl,
        String cancelUrl,
        String webhookMetadata,
        String checkoutMode,
        String origin) {}
