// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AggregatorV3Interface} from "../feeds/AggregatorV3Interface.sol";

/// @title BackdatedFeedAggregator
/// @notice Test only: an aggregator whose history a test writes at will (any round id, answer and
/// `updatedAt`, holes included), to give RoundInForce the histories a real feed builds over months. It
/// answers a round without data as an OCR aggregator does (zeros) or, when built so, as a FluxAggregator
/// does (a revert); `latestRoundData` can be made to revert, as a FluxAggregator's does while its latest
/// round is still in progress.
contract BackdatedFeedAggregator is AggregatorV3Interface {
    struct Transmission {
        int192 answer;
        uint64 updatedAt;
    }

    // solhint-disable-next-line immutable-vars-naming
    bool public immutable revertsWithoutData;
    bool public latestReverts;

    uint64 private _latestRound;
    mapping(uint256 roundId => Transmission) private _rounds;

    error NoDataPresent();
    error LengthMismatch();

    constructor(bool revertsWithoutData_) {
        revertsWithoutData = revertsWithoutData_;
    }

    /// @notice Writes rounds; the highest id written is the latest.
    function setRounds(
        uint64[] calldata roundIds,
        int192[] calldata answers,
        uint64[] calldata updatedAts
    ) external {
        if (roundIds.length != answers.length || roundIds.length != updatedAts.length) revert LengthMismatch();
        uint64 latest = _latestRound;
        for (uint256 i = 0; i < roundIds.length; i++) {
            _rounds[roundIds[i]] = Transmission(answers[i], updatedAts[i]);
            if (roundIds[i] > latest) latest = roundIds[i];
        }
        _latestRound = latest;
    }

    function setLatestReverts(bool reverts) external {
        latestReverts = reverts;
    }

    function decimals() external pure override returns (uint8) {
        return 8;
    }

    function description() external pure override returns (string memory) {
        return "TEST / USD";
    }

    function version() external pure override returns (uint256) {
        return 0;
    }

    function getRoundData(
        uint80 roundId
    ) external view override returns (uint80, int256, uint256, uint256, uint80) {
        return _round(roundId);
    }

    function latestRoundData() external view override returns (uint80, int256, uint256, uint256, uint80) {
        if (latestReverts) revert NoDataPresent();
        return _round(_latestRound);
    }

    function _round(uint80 roundId) private view returns (uint80, int256, uint256, uint256, uint80) {
        Transmission memory round = _rounds[roundId];
        if (round.updatedAt == 0 && revertsWithoutData) revert NoDataPresent();
        return (roundId, round.answer, round.updatedAt, round.updatedAt, roundId);
    }
}
