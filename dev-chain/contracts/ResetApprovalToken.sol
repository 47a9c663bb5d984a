// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {TestToken} from "./TestToken.sol";

/// @title ResetApprovalToken
/// @notice A test ERC-20 that behaves like Tether's USDT on approvals: it refuses to change a non-zero allowance to
/// another non-zero one (the holder must approve 0 first), so tests prove the enrolment kit's approve(0) + approve(n).
/// @dev THIS IS A TEST TOKEN (open mint, from TestToken); never for a real network.
contract ResetApprovalToken is TestToken {
    constructor() TestToken("Reset Approval Token", "RAT", 6) {}

    function approve(address spender, uint256 amount) public override returns (bool) {
        require(amount == 0 || allowance[msg.sender][spender] == 0, "ResetApprovalToken: approve 0 first");
        return super.approve(spender, amount);
    }
}
