// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Test only and hostile on purpose: what the linter would forbid is the point.
// solhint-disable

/// Test only: the code an EOA delegates to (EIP-7702) to burn every gas it is given when paid, cheaply
/// when the base fee is 0 (a gas estimate): a hostile winner whose every payout burns the payer's gas.
contract GasBurner {
    receive() external payable {
        if (block.basefee == 0) return;
        uint256 i;
        while (true) {
            i++;
        }
    }
}
