// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice A smart-account wallet cut down to what the server's tests need: its owner (or, under an
/// EIP-7702 delegation, the account itself) makes several calls in one transaction, as a Safe's
/// MultiSend or a 7702 batch does. What it calls sees the account, not the owner, as msg.sender.
/// Test only: no signatures, no nonce, no modules.
contract BatchAccount {
    struct Call {
        address to;
        uint256 value;
        bytes data;
    }

    address public immutable owner;

    error NotOwner();
    error CallFailed(uint256 index, bytes reason);

    constructor(address owner_) {
        owner = owner_;
    }

    function execute(Call[] calldata calls) external payable {
        if (msg.sender != owner && msg.sender != address(this)) revert NotOwner();
        for (uint256 i = 0; i < calls.length; ++i) {
            (bool ok, bytes memory reason) = calls[i].to.call{value: calls[i].value}(calls[i].data);
            if (!ok) revert CallFailed(i, reason);
        }
    }

    receive() external payable {}
}
