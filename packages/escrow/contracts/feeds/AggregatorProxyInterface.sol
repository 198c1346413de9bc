// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AggregatorV3Interface} from "./AggregatorV3Interface.sol";

/// @title AggregatorProxyInterface
/// @notice A Chainlink proxy's phases, as its AggregatorProxy and EACAggregatorProxy expose them
/// (smartcontractkit/chainlink, contracts/src/v0.6/AggregatorProxy.sol, MIT): each aggregator the proxy
/// has pointed to is a phase, numbered from 1, and a round id through the proxy is
/// `(phaseId << 64) | aggregatorRoundId`.
// Chainlink's own name, the one consumers know it by.
// solhint-disable-next-line interface-starts-with-i
interface AggregatorProxyInterface is AggregatorV3Interface {
    /// @notice The current phase: the one `latestRoundData` answers from.
    function phaseId() external view returns (uint16);

    /// @notice The aggregator of a phase; the zero address for a phase the proxy never had.
    function phaseAggregators(uint16 phase) external view returns (AggregatorV3Interface);

    /// @notice The current phase's aggregator.
    function aggregator() external view returns (address);
}
