// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Test only and hostile on purpose: what the linter would forbid is the point.
// solhint-disable

/// Test only: forces BNB into a contract that refuses transfers (selfdestruct in the constructor still
/// moves the balance after EIP-6780).
contract ForceFeeder {
    constructor(address payable target) payable {
        selfdestruct(target);
    }
}
