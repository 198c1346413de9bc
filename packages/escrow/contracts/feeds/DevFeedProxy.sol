// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {AggregatorProxyInterface} from "./AggregatorProxyInterface.sol";
import {AggregatorV3Interface} from "./AggregatorV3Interface.sol";

/// @title DevFeedProxy
/// @notice The address a consumer reads one coin's price from on the local chain, with phases as a
/// Chainlink AggregatorProxy has them (smartcontractkit/chainlink, contracts/src/v0.6/AggregatorProxy.sol,
/// MIT): the owner may move the proxy to a new aggregator, which starts a new phase; a round id through
/// the proxy is `(phaseId << 64) | aggregatorRoundId`, so ids grow across phases; `latestRoundData`
/// answers from the current phase and `getRoundData` from the phase its id names, reverting for a phase
/// the proxy never had.
/// @dev Chainlink moves in two steps (propose, confirm) so consumers can try the proposed aggregator
/// first; a dev chain has no such consumers, so the move is one call.
contract DevFeedProxy is AggregatorProxyInterface, Ownable2Step {
    struct Phase {
        uint16 id;
        AggregatorV3Interface aggregator;
    }

    uint256 private constant _PHASE_OFFSET = 64;

    /// @dev One slot: the current phase and its aggregator, read together by every latest read.
    Phase private _current;
    mapping(uint16 phase => AggregatorV3Interface) public override phaseAggregators;

    event AggregatorSet(uint16 indexed phaseId, address indexed aggregator);

    error ZeroAddress();
    error NoSuchPhase(uint16 phaseId);

    constructor(address initialOwner, AggregatorV3Interface firstAggregator) Ownable(initialOwner) {
        _setAggregator(firstAggregator);
    }

    /// @notice Starts the next phase, answered by `next` from now on.
    function setAggregator(AggregatorV3Interface next) external onlyOwner {
        _setAggregator(next);
    }

    function phaseId() external view override returns (uint16) {
        return _current.id;
    }

    function aggregator() external view override returns (address) {
        return address(_current.aggregator);
    }

    function decimals() external view override returns (uint8) {
        return _current.aggregator.decimals();
    }

    function description() external view override returns (string memory) {
        return _current.aggregator.description();
    }

    function version() external view override returns (uint256) {
        return _current.aggregator.version();
    }

    function getRoundData(
        uint80 roundId
    ) external view override returns (uint80, int256, uint256, uint256, uint80) {
        uint16 phase = uint16(roundId >> _PHASE_OFFSET);
        AggregatorV3Interface source = phaseAggregators[phase];
        if (address(source) == address(0)) revert NoSuchPhase(phase);
        (uint80 id, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound) = source
            .getRoundData(uint64(roundId));
        return (_withPhase(phase, id), answer, startedAt, updatedAt, _withPhase(phase, answeredInRound));
    }

    function latestRoundData() external view override returns (uint80, int256, uint256, uint256, uint80) {
        Phase memory current = _current;
        (uint80 id, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound) = current
            .aggregator
            .latestRoundData();
        return (
            _withPhase(current.id, id),
            answer,
            startedAt,
            updatedAt,
            _withPhase(current.id, answeredInRound)
        );
    }

    function _setAggregator(AggregatorV3Interface next) private {
        if (address(next) == address(0)) revert ZeroAddress();
        uint16 id = _current.id + 1;
        _current = Phase(id, next);
        phaseAggregators[id] = next;
        emit AggregatorSet(id, address(next));
    }

    /// @dev An aggregator's id with the phase above bit 64, as the proxy shows it.
    function _withPhase(uint16 phase, uint80 aggregatorRoundId) private pure returns (uint80) {
        return uint80((uint256(phase) << _PHASE_OFFSET) | uint64(aggregatorRoundId));
    }
}
