// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title DevPriceFeed
/// @notice A USD price feed for the local dev chain with the read interface of Chainlink's AggregatorV3Interface
///         (decimals, description, version, getRoundData, latestRoundData), so services read it exactly as they read
///         a real feed on a live network.
/// @dev THIS IS A TEST FEED: its owner sets any price at any time. It must never be deployed on a real network. Every
///      `setAnswer` starts a new round stamped with the block's time; earlier rounds stay readable.
contract DevPriceFeed {
    struct Round {
        int256 answer;
        uint256 startedAt;
        uint256 updatedAt;
    }

    uint8 public immutable decimals;
    string public description;
    uint256 public constant version = 1;
    address public immutable owner;
    uint80 public latestRound;

    mapping(uint80 => Round) private rounds;

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    constructor(uint8 decimals_, string memory description_, int256 initialAnswer) {
        decimals = decimals_;
        description = description_;
        owner = msg.sender;
        _setAnswer(initialAnswer);
    }

    /// @notice Starts a new round with this price (the owner only).
    function setAnswer(int256 answer) external {
        require(msg.sender == owner, "DevPriceFeed: only the owner sets prices");
        _setAnswer(answer);
    }

    function getRoundData(uint80 roundId)
        external
        view
        returns (uint80, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        Round memory round = rounds[roundId];
        require(round.updatedAt != 0, "DevPriceFeed: no data for this round");
        return (roundId, round.answer, round.startedAt, round.updatedAt, roundId);
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        Round memory round = rounds[latestRound];
        return (latestRound, round.answer, round.startedAt, round.updatedAt, latestRound);
    }

    function _setAnswer(int256 answer) private {
        latestRound += 1;
        rounds[latestRound] = Round(answer, block.timestamp, block.timestamp);
        emit AnswerUpdated(answer, latestRound, block.timestamp);
    }
}
