// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AggregatorV3Interface} from "./AggregatorV3Interface.sol";

/// @title DevFeedAggregator
/// @notice The local chain's price feed for one coin: it answers as a Chainlink OCR aggregator does
/// (smartcontractkit/chainlink, libocr/contract/OffchainAggregator.sol, MIT), so what reads a BSC feed
/// reads this one. Rounds are numbered from 1, one per answer; a round gets `updatedAt` from the block
/// that publishes it, as a transmission does; a round without data answers zeros rather than reverting.
/// Only the writer fixed at deployment publishes (the dev chain's simulated price walk).
/// @dev Read it through a DevFeedProxy, as a consumer reads a Chainlink aggregator through its proxy.
contract DevFeedAggregator is AggregatorV3Interface {
    /// @dev One slot per round, as OCR's Transmission: a price needs no more than 192 bits.
    struct Transmission {
        int192 answer;
        uint64 updatedAt;
    }

    /// @notice The only account that may publish an answer.
    // solhint-disable-next-line immutable-vars-naming
    address public immutable writer;
    // solhint-disable-next-line immutable-vars-naming
    uint8 public immutable override decimals;

    string private _description;
    uint64 private _latestRound;
    mapping(uint256 roundId => Transmission) private _rounds;

    /// @dev Chainlink's AggregatorInterface event, so log readers of a real feed work here too.
    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    error NotWriter(address caller);
    error ZeroAddress();

    constructor(address writer_, uint8 decimals_, string memory description_) {
        if (writer_ == address(0)) revert ZeroAddress();
        writer = writer_;
        decimals = decimals_;
        _description = description_;
    }

    /// @notice Publishes the next round, updated now. Returns its round id (this aggregator's own).
    function publish(int192 answer) external returns (uint80 roundId) {
        if (msg.sender != writer) revert NotWriter(msg.sender);
        uint64 id = _latestRound + 1;
        _latestRound = id;
        _rounds[id] = Transmission(answer, uint64(block.timestamp));
        emit AnswerUpdated(answer, id, block.timestamp);
        return id;
    }

    function description() external view override returns (string memory) {
        return _description;
    }

    /// @notice Changes when what this contract answers changes.
    function version() external pure override returns (uint256) {
        return 1;
    }

    function getRoundData(
        uint80 roundId
    ) external view override returns (uint80, int256, uint256, uint256, uint80) {
        return _round(roundId);
    }

    /// @dev Before the first round: round 0, all zeros (as OCR, which never reverts here).
    function latestRoundData() external view override returns (uint80, int256, uint256, uint256, uint80) {
        return _round(_latestRound);
    }

    function _round(uint80 roundId) private view returns (uint80, int256, uint256, uint256, uint80) {
        Transmission memory round = _rounds[roundId];
        // startedAt is updatedAt, and answeredInRound the round itself, as OCR answers.
        return (roundId, round.answer, round.updatedAt, round.updatedAt, roundId);
    }
}
