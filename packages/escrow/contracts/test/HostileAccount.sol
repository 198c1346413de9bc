// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Test only and hostile on purpose: what the linter would forbid is the point.
// solhint-disable

/// Test only: a bettor that is a contract (any escrow: it forwards the calls it is given), and misbehaves
/// when paid as its mode says.
contract HostileAccount {
    enum Mode {
        Accept,
        BurnGas,
        Revert,
        ReturnBomb,
        Reenter,
        SpendLikeASafe
    }

    address public immutable escrow;
    Mode public mode;
    bytes public reentry;
    bool public reentrySucceeded;
    uint256 public received;

    event Received(address from, uint256 amount);

    constructor(address escrow_) {
        escrow = escrow_;
    }

    function setMode(Mode mode_, bytes calldata reentry_) external {
        mode = mode_;
        reentry = reentry_;
    }

    /// Calls the escrow with msg.value as this account: a bet, a dispute, a withdrawal. Bubbles a revert.
    function forward(bytes calldata data) external payable returns (bytes memory result) {
        bool ok;
        (ok, result) = escrow.call{value: msg.value}(data);
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
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
            (bool ok,) = escrow.call(reentry);
            reentrySucceeded = reentrySucceeded || ok;
        } else if (current == Mode.SpendLikeASafe) {
            emit Received(msg.sender, msg.value);
        }
        received += msg.value;
    }
}
