// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title AggregatorV3Interface
/// @notice What a Chainlink price feed answers, by the signatures of Chainlink's AggregatorV3Interface
/// (smartcontractkit/chainlink, contracts/src/v0.6/interfaces/AggregatorV3Interface.sol, MIT): a
/// consumer written against it reads a BSC feed and the local chain's dev feed alike.
// Chainlink's own name, the one consumers know it by.
// solhint-disable-next-line interface-starts-with-i
interface AggregatorV3Interface {
    function decimals() external view returns (uint8);

    function description() external view returns (string memory);

    function version() external view returns (uint256);

    /// @dev A round without data answers `updatedAt` 0 (an OCR aggregator) or reverts (a
    /// FluxAggregator, or a proxy asked about a phase it never had).
    function getRoundData(
        uint80 roundId
    )
        external
        view
        returns (uint80 id, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound);

    function latestRoundData()
        external
        view
        returns (uint80 id, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound);
}
