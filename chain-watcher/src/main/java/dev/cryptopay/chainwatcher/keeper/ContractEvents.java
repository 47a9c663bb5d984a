package dev.cryptopay.chainwatcher.keeper;

import org.web3j.crypto.Hash;

/** The subscription contract's events the keeper reads, as their topic 0 (lower-case 0x-hex, as stored). */
final class ContractEvents {

    static final String SUBSCRIBED = Hash.sha3String(
            "Subscribed(bytes32,bytes32,address,address,address,address,uint256,uint64,uint64,bytes32)");
    static final String CHARGED = Hash.sha3String("Charged(bytes32,bytes32,address,uint64,uint64,uint256)");
    static final String MISSED = Hash.sha3String("Missed(bytes32,bytes32,address,uint64,uint32,uint32)");
    static final String CANCELLED = Hash.sha3String("Cancelled(bytes32,bytes32,address,address,uint8)");

    private ContractEvents() {}
}
