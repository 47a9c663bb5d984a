package dev.cryptopay.gateway.keys;

/** The two kinds of merchant keys the gateway resolves. */
public enum KeyKind {
    /** {@code mk_…}: secret, signs requests; also accepted in {@code merchant_key} for compatibility. */
    API_KEY,
    /** {@code pk_…}: public, accepted only in {@code merchant_key}. */
    PUBLISHABLE_KEY
}
