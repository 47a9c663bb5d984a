// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface ITransferFrom {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @title TestMultisend
/// @notice A test helper: one transaction that moves a token from the caller to several recipients, as batch payouts
///         and multisend wallets do, so tests see several Transfer logs (to several addresses, or several to one) in
///         one transaction. The caller approves this contract for the total first.
/// @dev A TEST HELPER for the dev chain only; it holds nothing and has no owner.
contract TestMultisend {
    function send(address token, address[] calldata to, uint256[] calldata amounts) external {
        require(to.length == amounts.length, "TestMultisend: lengths differ");
        for (uint256 i = 0; i < to.length; i++) {
            require(ITransferFrom(token).transferFrom(msg.sender, to[i], amounts[i]), "TestMultisend: not moved");
        }
    }
}
