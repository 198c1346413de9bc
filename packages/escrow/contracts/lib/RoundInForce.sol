// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AggregatorProxyInterface} from "../feeds/AggregatorProxyInterface.sol";
import {AggregatorV3Interface} from "../feeds/AggregatorV3Interface.sol";

/// @title RoundInForce
/// @notice Proves that a Chainlink round id, named by the caller, is the round of a proxy's feed in
/// force at a past instant, and judges its price: the rule of packages/core feed-rounds.ts (the last round
/// updated at or before the instant, a price only if fresh and positive), on chain, with a fixed number
/// of reads (docs/decisions/029-price-outcomes-from-the-feed.md).
/// @dev A round id is `(phaseId << 64) | aggregatorRoundId`, as Chainlink's AggregatorProxy builds it
/// (smartcontractkit/chainlink, contracts/src/v0.6/AggregatorProxy.sol). Trusted, as of any Chainlink
/// consumer: the feed's rounds within a phase are in order of time (an aggregator stamps each with its
/// block's time), and a phase holds from its first round until the next phase's first round. Every
/// read that fails (a revert, no data, out of gas) can only make the proof refuse, never accept: each
/// acceptance rests on data read, not on a read that failed.
library RoundInForce {
    enum Verdict {
        /// The round's answer is the price at the instant.
        InForce,
        /// The round is in force but was updated more than `maxAge` before the instant: no price.
        Stale,
        /// The round is in force but answered zero or less: no price.
        NotPositive
    }

    struct Price {
        Verdict verdict;
        int256 answer;
        uint256 updatedAt;
    }

    uint256 internal constant PHASE_OFFSET = 64;

    /// @notice The instant is not yet past: a round published later in this block could still cover it.
    error InstantNotPast(uint256 instant);
    /// @notice The feed holds no data for this id (phase 0, round 0, a phase to come, or no data).
    error NoSuchRound(uint80 roundId);
    /// @notice The round's phase is older than the one before the current: not provable in bounded reads.
    error PhaseTooOld(uint80 roundId, uint16 currentPhase);
    /// @notice The round was updated after the instant.
    error RoundTooLate(uint80 roundId, uint256 updatedAt);
    /// @notice A later round (the next in its phase, or the next phase's first) was updated at or before
    /// the instant: it, or one after it, is the round in force.
    error RoundNotInForce(uint80 roundId, uint80 laterRoundId);
    /// @notice The feed's history has a hole where the proof must read (the next id holds no data yet the
    /// round is not its phase's latest, or the next phase has rounds but no first one): refused, as the
    /// round in force cannot be told in bounded reads.
    error RoundNotProvable(uint80 roundId);

    /// @notice The price `roundId` gives at `instant` (a past time, in seconds), when that round is the
    /// one in force then; reverts otherwise. Fresh means updated at most `maxAge` seconds before the
    /// instant. Reads the feed at most seven times, whatever its history.
    function prove(
        AggregatorProxyInterface feed,
        uint80 roundId,
        uint256 instant,
        uint256 maxAge
    ) internal view returns (Price memory price) {
        if (instant >= block.timestamp) revert InstantNotPast(instant);
        uint16 phase = uint16(roundId >> PHASE_OFFSET);
        uint16 current = feed.phaseId();
        if (phase == 0 || uint64(roundId) == 0 || phase > current) revert NoSuchRound(roundId);
        // Only the current phase and the one before: a round of an older phase would need every later
        // phase's first round read to know none replaced it by the instant.
        if (phase < current - 1) revert PhaseTooOld(roundId, current);

        bool found;
        (found, price.answer, price.updatedAt) = _read(feed, roundId);
        if (!found) revert NoSuchRound(roundId);
        if (price.updatedAt > instant) revert RoundTooLate(roundId, price.updatedAt);
        _requireNextInPhaseLater(feed, roundId, phase, current, instant);
        if (phase < current) _requireCurrentPhaseLater(feed, roundId, current, instant);

        // Judged as judgeCoveringRound does: a non-positive answer first, then its age.
        if (price.answer <= 0) price.verdict = Verdict.NotPositive;
        else if (instant - price.updatedAt > maxAge) price.verdict = Verdict.Stale;
        else price.verdict = Verdict.InForce;
    }

    /// @dev Within the phase: the next id was updated after the instant, or the round is its phase's last.
    function _requireNextInPhaseLater(
        AggregatorProxyInterface feed,
        uint80 roundId,
        uint16 phase,
        uint16 current,
        uint256 instant
    ) private view {
        // The last id a phase can number has no next one in its phase.
        if (uint64(roundId) < type(uint64).max) {
            (bool found, , uint256 updatedAt) = _read(feed, roundId + 1);
            if (found) {
                if (updatedAt <= instant) revert RoundNotInForce(roundId, roundId + 1);
                return;
            }
        }
        // A hole, unless the round is its phase's latest: rounds after it may still cover the instant.
        if (!_isLatestOfPhase(feed, phase, current, roundId)) revert RoundNotProvable(roundId);
    }

    /// @dev Across phases: the current phase replaces the one before from its first round on.
    function _requireCurrentPhaseLater(
        AggregatorProxyInterface feed,
        uint80 roundId,
        uint16 current,
        uint256 instant
    ) private view {
        uint80 first = uint80((uint256(current) << PHASE_OFFSET) | 1);
        (bool found, , uint256 updatedAt) = _read(feed, first);
        if (found) {
            if (updatedAt <= instant) revert RoundNotInForce(roundId, first);
        } else if (!_isEmptyCurrentPhase(feed)) {
            revert RoundNotProvable(roundId);
        }
    }

    /// @dev A round's answer and time; not found when the read reverts or answers `updatedAt` 0.
    function _read(
        AggregatorV3Interface feed,
        uint80 roundId
    ) private view returns (bool found, int256 answer, uint256 updatedAt) {
        try feed.getRoundData(roundId) returns (uint80, int256 roundAnswer, uint256, uint256 roundUpdatedAt, uint80) {
            return (roundUpdatedAt != 0, roundAnswer, roundUpdatedAt);
        } catch {
            return (false, 0, 0);
        }
    }

    /// @dev Whether the phase's aggregator says `roundId` is its latest round: then no round follows it
    /// yet, and any that comes is updated at its block's time, after every past instant.
    function _isLatestOfPhase(
        AggregatorProxyInterface feed,
        uint16 phase,
        uint16 current,
        uint80 roundId
    ) private view returns (bool) {
        if (phase == current) {
            try feed.latestRoundData() returns (uint80 latest, int256, uint256, uint256, uint80) {
                return latest == roundId;
            } catch {
                // A FluxAggregator's reverts while its latest round is in progress.
                return false;
            }
        }
        // The proxy answers `latestRoundData` from the current phase only: ask the phase's aggregator.
        AggregatorV3Interface source;
        try feed.phaseAggregators(phase) returns (AggregatorV3Interface phaseAggregator) {
            source = phaseAggregator;
        } catch {
            return false;
        }
        // A call to an address without code fails in decoding, which try/catch does not catch.
        if (address(source).code.length == 0) return false;
        try source.latestRoundData() returns (uint80 latest, int256, uint256, uint256, uint80) {
            return uint64(latest) == uint64(roundId);
        } catch {
            return false;
        }
    }

    /// @dev Whether the current phase has no round at all (an OCR aggregator's latest is round 0, zeros):
    /// a round it publishes later is updated after every past instant.
    function _isEmptyCurrentPhase(AggregatorProxyInterface feed) private view returns (bool) {
        try feed.latestRoundData() returns (uint80 latest, int256, uint256, uint256 updatedAt, uint80) {
            return uint64(latest) == 0 && updatedAt == 0;
        } catch {
            return false;
        }
    }
}
