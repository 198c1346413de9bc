// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice A stand-in for a Chainlink AggregatorV3 (BNB/USD, 8 decimals) on the local chain, so the
/// server's Chainlink feed is tested against a real contract read over JSON-RPC, never a mock RPC.
/// Test and dev only: anyone may set the data.
contract MockAggregator {
    struct RoundData {
        int256 answer;
        uint256 startedAt;
        uint256 updatedAt;
        uint80 answeredInRound;
    }

    uint8 public constant decimals = 8;
    string public constant description = "BNB / USD (mock)";
    uint256 public constant version = 4;

    uint80 public latestRound;
    mapping(uint80 => RoundData) private rounds;

    /// @notice Publishes a reading. Round ids may go backwards on purpose: the reader must refuse that.
    function setRoundData(uint80 roundId, int256 answer, uint256 updatedAt) external {
        rounds[roundId] = RoundData(answer, updatedAt, updatedAt, roundId);
        latestRound = roundId;
    }

    function getRoundData(uint80 roundId)
        public
        view
        returns (uint80, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        RoundData memory data = rounds[roundId];
        require(data.updatedAt > 0, "No data present");
        return (roundId, data.answer, data.startedAt, data.updatedAt, data.answeredInRound);
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return getRoundData(latestRound);
    }
}
