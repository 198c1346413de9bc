// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AggregatorProxyInterface} from "../feeds/AggregatorProxyInterface.sol";
import {RoundInForce} from "../lib/RoundInForce.sol";

/// @title RoundInForceHarness
/// @notice Test only: RoundInForce behind external calls, one proof or many at once (a property test
/// tries a dozen ids per instant in one call), and the gas of each proof as a contract pays it.
contract RoundInForceHarness {
    struct Outcome {
        bool proved;
        RoundInForce.Price price;
        /// The revert's data when not proved: a RoundInForce error.
        bytes revertData;
    }

    function prove(
        AggregatorProxyInterface feed,
        uint80 roundId,
        uint256 instant,
        uint256 maxAge
    ) external view returns (RoundInForce.Price memory) {
        return RoundInForce.prove(feed, roundId, instant, maxAge);
    }

    /// @notice The proof at `secondsAgo` before this block's time: the instant's bound, exactly.
    function proveSecondsAgo(
        AggregatorProxyInterface feed,
        uint80 roundId,
        uint256 secondsAgo,
        uint256 maxAge
    ) external view returns (RoundInForce.Price memory) {
        return RoundInForce.prove(feed, roundId, block.timestamp - secondsAgo, maxAge);
    }

    function proveEach(
        AggregatorProxyInterface feed,
        uint80[] calldata roundIds,
        uint256 instant,
        uint256 maxAge
    ) external view returns (Outcome[] memory outcomes) {
        outcomes = new Outcome[](roundIds.length);
        for (uint256 i = 0; i < roundIds.length; i++) {
            try this.prove(feed, roundIds[i], instant, maxAge) returns (RoundInForce.Price memory price) {
                outcomes[i].proved = true;
                outcomes[i].price = price;
            } catch (bytes memory reason) {
                outcomes[i].revertData = reason;
            }
        }
    }

    /// @notice The gas of each proof in turn, in one call: a settlement proves its lock and its close so.
    function gasOfProofs(
        AggregatorProxyInterface feed,
        uint80[] calldata roundIds,
        uint256[] calldata instants,
        uint256 maxAge
    ) external view returns (uint256[] memory gasUsed) {
        gasUsed = new uint256[](roundIds.length);
        for (uint256 i = 0; i < roundIds.length; i++) {
            uint256 before = gasleft();
            RoundInForce.prove(feed, roundIds[i], instants[i], maxAge);
            gasUsed[i] = before - gasleft();
        }
    }
}
