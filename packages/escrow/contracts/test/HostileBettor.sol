// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Test only and hostile on purpose: what the linter would forbid is the point.
// solhint-disable

import {PredictionEscrow} from "../PredictionEscrow.sol";

/// Test only: a bettor that is a contract, and misbehaves when paid as its mode says.
contract HostileBettor {
    enum Mode {
        Accept,
        BurnGas,
        Revert,
        ReturnBomb,
        Reenter,
        SpendLikeASafe
    }

    PredictionEscrow public immutable escrow;
    Mode public mode;
    bytes public reentry;
    bool public reentrySucceeded;
    uint256 public received;

    event Received(address from, uint256 amount);

    constructor(PredictionEscrow escrow_) {
        escrow = escrow_;
    }

    function setMode(Mode mode_, bytes calldata reentry_) external {
        mode = mode_;
        reentry = reentry_;
    }

    function bet(bytes32 market, uint40 closesAt, uint8 side) external payable returns (uint256) {
        return escrow.deposit{value: msg.value}(market, closesAt, 1, side, bytes32(0), bytes32(0));
    }

    function withdrawTo(address payable to) external {
        escrow.withdraw(to);
    }

    receive() external payable {
        Mode current = mode;
        if (current == Mode.BurnGas) {
            uint256 i;
            while (true) {
                i++;
            }
        } else if (current == Mode.Revert) {
            revert("not today");
        } else if (current == Mode.ReturnBomb) {
            assembly {
                revert(0, 20000)
            }
        } else if (current == Mode.Reenter) {
            // Try to take a second payout (or credit) from inside the first one.
            (bool ok,) = address(escrow).call(reentry);
            reentrySucceeded = reentrySucceeded || ok;
        } else if (current == Mode.SpendLikeASafe) {
            // A smart account's receive, as a Safe's: an event (and the counter below).
            emit Received(msg.sender, msg.value);
        }
        received += msg.value;
    }
}
