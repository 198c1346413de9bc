// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";

/// @title PredictionEscrow
/// @notice Holds every stake of BNB Predict (market bets, creation bets, oracle-round bets, flag bonds)
/// in per-market pools. Money leaves only to the owner of a stake (a payout committed by the market's
/// settlement, or a refund) or, as the market's fee and nothing more, to a treasury fixed at deploy.
/// Design and threat model: docs/decisions/025-escrow-contract.md and docs/custody.md.
/// @dev Not upgradeable: a new version is a new deployment.
contract PredictionEscrow is Ownable2Step, ReentrancyGuardTransient {
    using SafeCast for uint256;

    // ---------------------------------------------------------------- constants

    /// @notice Most a settlement may keep as fee (rounding dust included): 10 %, as PancakeSwap's.
    uint256 public constant MAX_FEE_BPS = 1000;
    /// @notice A market unsettled this long after its close refunds every stake, on anyone's call.
    uint256 public constant ESCAPE_DELAY = 7 days;
    /// @notice Latest close a deposit may name, from its block: the longest market (24 h) with room.
    uint256 public constant MAX_BETTING_PERIOD = 2 days;
    /// @notice Gas forwarded with a pushed payout: a Safe's or a smart account's receive fits, a gas
    /// burner costs the caller at most this, once. A push that fails becomes a credit to withdraw.
    uint256 public constant PAYOUT_GAS_CAP = 50_000;
    /// @dev Gas a payout must have beyond the cap: the call's own cost (value, cold account, an EIP-7702
    /// delegation) and, after the push, its failure path (a new credit, its event, the return).
    uint256 private constant _AFTER_PUSH_GAS = 60_000;
    /// @notice Bounds of the delay between a settlement and its first payout (the guardian's window).
    uint256 public constant MIN_PAYOUT_DELAY = 1 minutes;
    uint256 public constant MAX_PAYOUT_DELAY = 7 days;
    /// @notice Bounds of the settlement rate limit (a token bucket of payout wei, refilled hourly).
    uint256 public constant MIN_SETTLEMENT_CAPACITY = 0.1 ether;
    uint256 public constant MAX_SETTLEMENT_CAPACITY = 10_000 ether;
    /// @notice Most times a market's pending settlement may be disputed: bounds what a flagger whose
    /// bond is refused (it costs it gas only) can delay, to MAX_DISPUTES payout delays.
    uint8 public constant MAX_DISPUTES = 3;
    /// @notice Bounds of the dispute bond's floor: a dispute always risks something, and a bettor of a
    /// small market can still afford one.
    uint256 public constant MIN_DISPUTE_BOND_MIN = 0.001 ether;
    uint256 public constant MAX_DISPUTE_BOND_MIN = 10 ether;
    /// @notice Most of a pool a dispute bond may ask: 20 %.
    uint256 public constant MAX_DISPUTE_BOND_BPS = 2000;

    // ---------------------------------------------------------------- types

    enum State {
        None,
        Open,
        Settled,
        Refunding
    }

    // Laid out by use, not size: a claim reads the first three slots, a deposit only the first.
    // solhint-disable-next-line gas-struct-packing
    struct Market {
        /// Stakes in, less stakes refunded. Fixed while settled: payoutTotal + fee (a dispute reopens it).
        uint128 pool;
        /// Deposits close at this time (part of the market's key, so nobody can move it).
        uint40 closesAt;
        /// Payouts open at this time; until then the guardian may veto, the operator may amend and a
        /// deposit of at least the dispute bond sends the settlement back.
        uint40 claimableAt;
        State state;
        /// The verdict, as the server codes it (opaque to the contract). A dispute leaves it (and the
        /// verdict's hash) as the record of what it disputed, until the next settlement.
        uint8 outcome;
        /// Pending settlements sent back by a dispute deposit, at most MAX_DISPUTES.
        uint8 disputes;
        /// Root of the payout list: a StandardMerkleTree of (uint256 stakeId, uint256 amount).
        bytes32 payoutRoot;
        uint128 payoutTotal;
        uint128 paid;
        /// The treasury's share, sent once the settlement is final; 0 once sent.
        uint128 fee;
        /// Hash of the verdict with its evidence bundle, as the market's Evidence panel shows it.
        bytes32 verdictHash;
    }

    /// A stake as deposited: what a claim or a refund names, checked against the stored hash.
    struct StakeRef {
        uint256 stakeId;
        address owner;
        bytes32 market;
        uint256 amount;
    }

    struct Claim {
        StakeRef stake;
        /// This stake's amount in the market's payout list.
        uint256 payout;
        bytes32[] proof;
    }

    /// One storage slot read and written by every deposit.
    struct Ledger {
        /// Everything the contract owes: open and refunding pools, unclaimed payouts, unsent fees and
        /// credits. address(this).balance >= liabilities always; anything above is forced-in BNB.
        uint128 liabilities;
        uint64 nextStakeId;
        bool paused;
    }

    struct Bucket {
        uint128 level;
        uint40 updatedAt;
    }

    // ---------------------------------------------------------------- storage

    // solhint-disable-next-line immutable-vars-naming
    address payable public immutable treasury;
    /// @notice A dispute's bond is the larger of this and disputeBondBps of the market's pool.
    // solhint-disable-next-line immutable-vars-naming
    uint128 public immutable disputeBondMin;
    // solhint-disable-next-line immutable-vars-naming
    uint16 public immutable disputeBondBps;
    address public operator;
    address public guardian;
    uint32 public minPayoutDelay;
    uint128 public settlementCapacity;
    uint128 public settlementRefillPerHour;

    Ledger private _ledger;
    Bucket private _bucket;

    mapping(bytes32 market => Market) public markets;
    /// keccak256(abi.encode(owner, market, amount)) while the stake is open; 0 once paid or refunded.
    mapping(uint256 stakeId => bytes32) public stakes;
    /// Payouts and refunds whose push failed, for their owner to withdraw.
    mapping(address owner => uint256) public credits;

    // ---------------------------------------------------------------- events

    event Deposited(
        uint256 indexed stakeId,
        bytes32 indexed market,
        address indexed owner,
        uint256 amount,
        uint8 kind,
        uint8 side,
        bytes32 terms,
        bytes32 ref
    );
    event Settled(
        bytes32 indexed market,
        uint8 outcome,
        bytes32 verdictHash,
        bytes32 payoutRoot,
        uint256 payoutTotal,
        uint256 fee,
        uint256 claimableAt
    );
    event Voided(bytes32 indexed market, uint8 outcome, bytes32 verdictHash);
    /// The deposit `stakeId` sent the market's pending settlement back; `disputes` counts them so far.
    event Disputed(bytes32 indexed market, uint256 indexed stakeId, uint8 disputes);
    event Vetoed(bytes32 indexed market);
    event Escaped(bytes32 indexed market);
    event Claimed(uint256 indexed stakeId, bytes32 indexed market, address indexed owner, uint256 amount);
    event Refunded(uint256 indexed stakeId, bytes32 indexed market, address indexed owner, uint256 amount);
    event Credited(address indexed owner, uint256 indexed stakeId, uint256 amount);
    event Withdrawn(address indexed owner, address to, uint256 amount);
    event FeeCollected(bytes32 indexed market, uint256 amount);
    event ExcessSwept(uint256 amount);
    event OperatorSet(address operator);
    event GuardianSet(address guardian);
    event SettlementLimitSet(uint256 capacity, uint256 refillPerHour);
    event MinPayoutDelaySet(uint256 delay);
    event Paused(address account);
    event Unpaused(address account);

    // ---------------------------------------------------------------- errors

    error ZeroAddress();
    error ZeroAmount();
    error NotOperator();
    error NotGuardian();
    error EnforcedPause();
    error ExpectedPause();
    error DirectTransfer();
    error RenounceDisabled();
    error OperatorIsAdmin();
    error BettingClosed(uint256 closesAt);
    error CloseTooFar(uint256 closesAt, uint256 latest);
    error MarketNotOpen(bytes32 market, State state);
    error StakeMismatch(uint256 stakeId);
    error MarketNotClosed(bytes32 market, uint256 closesAt);
    error NotSettleable(bytes32 market);
    error SettlementWindowOver(bytes32 market, uint256 deadline);
    error InvalidRoot();
    error PoolMismatch(uint256 pool, uint256 payoutTotalPlusFee);
    error FeeTooHigh(uint256 fee, uint256 maxFee);
    error DelayOutOfBounds(uint256 delay);
    error SettlementRateLimited(uint256 needed, uint256 available);
    error NotVetoable(bytes32 market);
    error NotClaimable(bytes32 market);
    error InvalidProof();
    error PayoutExceedsTotal(bytes32 market);
    error NotRefundable(bytes32 market);
    error InsufficientGas();
    error NothingToWithdraw();
    error NoFee(bytes32 market);
    error NoExcess();
    error LimitOutOfBounds();
    error DisputeBondOutOfBounds(uint256 bondMin, uint256 bondBps);
    error DisputesExhausted(bytes32 market);
    error BondTooLow(uint256 sent, uint256 bond);

    // ---------------------------------------------------------------- roles

    modifier onlyOperator() {
        if (msg.sender != operator) revert NotOperator();
        _;
    }

    modifier whenNotPaused() {
        if (_ledger.paused) revert EnforcedPause();
        _;
    }

    constructor(
        address admin,
        address operator_,
        address guardian_,
        address payable treasury_,
        uint128 capacity,
        uint128 refillPerHour,
        uint32 minPayoutDelay_,
        uint128 disputeBondMin_,
        uint16 disputeBondBps_
    ) Ownable(admin) {
        if (treasury_ == address(0)) revert ZeroAddress();
        treasury = treasury_;
        if (
            disputeBondMin_ < MIN_DISPUTE_BOND_MIN || disputeBondMin_ > MAX_DISPUTE_BOND_MIN
                || disputeBondBps_ > MAX_DISPUTE_BOND_BPS
        ) revert DisputeBondOutOfBounds(disputeBondMin_, disputeBondBps_);
        disputeBondMin = disputeBondMin_;
        disputeBondBps = disputeBondBps_;
        _setOperator(operator_);
        _setGuardian(guardian_);
        _setSettlementLimit(capacity, refillPerHour);
        _bucket = Bucket(capacity, uint40(block.timestamp));
        _setMinPayoutDelay(minPayoutDelay_);
        // Stake ids start at 1 (0 is never a stake); a non-zero slot keeps each deposit's write cheap.
        _ledger.nextStakeId = 1;
    }

    /// @notice Plain transfers have no owner or purpose: refused, so nothing arrives unowned.
    receive() external payable {
        revert DirectTransfer();
    }

    fallback() external payable {
        revert DirectTransfer();
    }

    // ---------------------------------------------------------------- bettors

    /// @notice Stake msg.value on a market. The bettor is msg.sender, whatever it is (an EOA, a Safe, an
    /// EIP-7702 account): its payouts and refunds go back to it.
    /// A deposit into a market whose settlement is pending (its payouts not open yet) is a dispute (a
    /// flag's bond): it needs at least `disputeBond(key)`, joins the pool like any stake, and sends the
    /// settlement back: the market is open again, past its close (no bet can join it), for the operator
    /// to settle anew or void. At most MAX_DISPUTES per market, and only while it can still be settled.
    /// The contract does not read `kind`: the server refunds a dispute it refuses (`refundStake`).
    /// @param market The server's market (or round) id, hashed; with `closesAt` it makes the market's key.
    /// @param closesAt When the market stops taking deposits (its deadline, or a round's lock).
    /// @param kind What the deposit pays for (bet, creation, round bet, flag bond), as the server codes it.
    /// @param side The prediction, as the server codes it.
    /// @param terms What a creation commits to (its content hash); 0 otherwise.
    /// @param ref A client reference the server echoes (e.g. the request id).
    function deposit(bytes32 market, uint40 closesAt, uint8 kind, uint8 side, bytes32 terms, bytes32 ref)
        external
        payable
        returns (uint256 stakeId)
    {
        Ledger memory ledger = _ledger;
        if (ledger.paused) revert EnforcedPause();
        if (msg.value == 0) revert ZeroAmount();
        bytes32 key = marketKey(market, closesAt);
        Market storage m = markets[key];
        State state = m.state;
        uint8 disputes = 0;
        if (state <= State.Open) {
            // A new or open market: a bet, checked against its close.
            if (closesAt <= block.timestamp) revert BettingClosed(closesAt);
            if (closesAt > block.timestamp + MAX_BETTING_PERIOD) {
                revert CloseTooFar(closesAt, block.timestamp + MAX_BETTING_PERIOD);
            }
            if (state == State.None) {
                m.state = State.Open;
                m.closesAt = closesAt;
            }
        } else {
            // Settled or refunding: only a dispute of a pending settlement is taken, whose close (part of
            // the key, checked by the market's first stake) has passed, as settling it required.
            disputes = _dispute(key, m);
        }
        m.pool += msg.value.toUint128();

        stakeId = ledger.nextStakeId;
        stakes[stakeId] = _stakeHash(msg.sender, key, msg.value);
        _ledger = Ledger(ledger.liabilities + msg.value.toUint128(), ledger.nextStakeId + 1, false);
        emit Deposited(stakeId, key, msg.sender, msg.value, kind, side, terms, ref);
        if (disputes != 0) emit Disputed(key, stakeId, disputes);
    }

    /// @notice Pay a settled market's stake its amount in the payout list. Anyone may call it (the
    /// server's relayer, the bettor, a friend): the money goes to the stake's owner only.
    function claim(Claim calldata c) external nonReentrant {
        _claim(c);
    }

    function claimMany(Claim[] calldata batch) external nonReentrant {
        for (uint256 i = 0; i < batch.length; ++i) {
            _claim(batch[i]);
        }
    }

    /// @notice Give a stake back to its owner: its market was voided or vetoed, or it was never settled
    /// ESCAPE_DELAY after its close (then the whole market turns to refunds). Anyone may call it.
    function refund(StakeRef calldata s) external nonReentrant {
        _refund(s);
    }

    function refundMany(StakeRef[] calldata batch) external nonReentrant {
        for (uint256 i = 0; i < batch.length; ++i) {
            _refund(batch[i]);
        }
    }

    /// @notice Withdraw what failed to push to msg.sender, to `to` (the owner's choice: an account whose
    /// code refuses BNB can still take its money elsewhere). Full gas; never blocked by pause.
    function withdraw(address payable to) external nonReentrant {
        uint256 amount = credits[msg.sender];
        if (amount == 0) revert NothingToWithdraw();
        credits[msg.sender] = 0;
        _ledger.liabilities -= amount.toUint128();
        emit Withdrawn(msg.sender, to, amount);
        Address.sendValue(to, amount);
    }

    // ---------------------------------------------------------------- operator

    /// @notice Give back a deposit the server refused (closed market, below the minimum, wrong terms, a
    /// dispute's bond it does not take) to its sender, and only to it. The stake leaves the market's pool.
    function refundStake(StakeRef calldata s) external onlyOperator nonReentrant {
        Market storage m = markets[s.market];
        if (m.state != State.Open) revert MarketNotOpen(s.market, m.state);
        _takeStake(s);
        m.pool -= s.amount.toUint128();
        emit Refunded(s.stakeId, s.market, s.owner, s.amount);
        _pay(s.owner, s.amount, s.stakeId);
    }

    /// @notice Commit a closed market's verdict and payout list. Payouts open `delay` seconds later;
    /// until then the guardian may veto, the operator may amend (a verdict overturned in review) and a
    /// bettor may dispute (deposit); a disputed market is settled again the same way, its bonds in the list.
    /// @param payoutRoot StandardMerkleTree root over (uint256 stakeId, uint256 amount) leaves.
    /// @param fee What the treasury keeps: the market's fee and the rounding dust; payoutTotal + fee
    /// must be the whole pool, so nothing is left unowned.
    function settle(
        bytes32 market,
        uint8 outcome,
        bytes32 verdictHash,
        bytes32 payoutRoot,
        uint128 payoutTotal,
        uint128 fee,
        uint32 delay
    ) external onlyOperator whenNotPaused {
        Market storage m = _settleable(market);
        if (block.timestamp < m.closesAt) revert MarketNotClosed(market, m.closesAt);
        if (payoutRoot == bytes32(0)) revert InvalidRoot();
        // No winners is a refund (settleAsRefund), never a sweep: payoutTotal 0 fails the fee cap.
        uint256 pool = m.pool;
        if (uint256(payoutTotal) + fee != pool) revert PoolMismatch(pool, uint256(payoutTotal) + fee);
        uint256 maxFee = (pool * MAX_FEE_BPS) / 10_000;
        if (fee > maxFee) revert FeeTooHigh(fee, maxFee);
        if (delay < minPayoutDelay || delay > MAX_PAYOUT_DELAY) revert DelayOutOfBounds(delay);
        _consumeSettlementAllowance(payoutTotal);

        uint256 claimableAt = block.timestamp + delay;
        m.state = State.Settled;
        m.outcome = outcome;
        m.claimableAt = uint40(claimableAt);
        m.payoutRoot = payoutRoot;
        m.payoutTotal = payoutTotal;
        m.paid = 0;
        m.fee = fee;
        m.verdictHash = verdictHash;
        emit Settled(market, outcome, verdictHash, payoutRoot, payoutTotal, fee, claimableAt);
    }

    /// @notice Void a market (no winners, a draw, a cancelled round, a judge that cannot decide):
    /// every stake goes back to its owner. Allowed before the close too (a market taken down).
    function settleAsRefund(bytes32 market, uint8 outcome, bytes32 verdictHash)
        external
        onlyOperator
        whenNotPaused
    {
        Market storage m = _settleable(market);
        m.state = State.Refunding;
        m.outcome = outcome;
        m.verdictHash = verdictHash;
        m.payoutRoot = bytes32(0);
        m.payoutTotal = 0;
        m.fee = 0;
        emit Voided(market, outcome, verdictHash);
    }

    // ---------------------------------------------------------------- guardian

    /// @notice Send a settlement whose payouts have not opened yet to refunds.
    function veto(bytes32 market) external {
        if (msg.sender != guardian) revert NotGuardian();
        Market storage m = markets[market];
        if (m.state != State.Settled || block.timestamp >= m.claimableAt) revert NotVetoable(market);
        m.state = State.Refunding;
        m.payoutTotal = 0;
        m.fee = 0;
        emit Vetoed(market);
    }

    /// @notice Stop deposits and settlements. Claims, refunds, withdrawals and fees go on.
    function pause() external {
        if (msg.sender != guardian && msg.sender != owner()) revert NotGuardian();
        if (_ledger.paused) revert EnforcedPause();
        _ledger.paused = true;
        emit Paused(msg.sender);
    }

    // ---------------------------------------------------------------- admin

    function unpause() external onlyOwner {
        if (!_ledger.paused) revert ExpectedPause();
        _ledger.paused = false;
        emit Unpaused(msg.sender);
    }

    function setOperator(address operator_) external onlyOwner {
        _setOperator(operator_);
    }

    function setGuardian(address guardian_) external onlyOwner {
        _setGuardian(guardian_);
    }

    function setSettlementLimit(uint128 capacity, uint128 refillPerHour) external onlyOwner {
        uint256 level = settlementAllowance();
        _setSettlementLimit(capacity, refillPerHour);
        _bucket = Bucket(uint128(level < capacity ? level : capacity), uint40(block.timestamp));
    }

    function setMinPayoutDelay(uint32 delay) external onlyOwner {
        _setMinPayoutDelay(delay);
    }

    /// @notice Disabled: an admin-less contract could never be unpaused or have its keys rotated.
    function renounceOwnership() public view override onlyOwner {
        revert RenounceDisabled();
    }

    // ---------------------------------------------------------------- treasury

    /// @notice Send a final settlement's fee to the treasury. Anyone may call it.
    function collectFee(bytes32 market) external nonReentrant {
        Market storage m = markets[market];
        uint256 fee = m.fee;
        if (m.state != State.Settled || block.timestamp < m.claimableAt || fee == 0) revert NoFee(market);
        m.fee = 0;
        _ledger.liabilities -= fee.toUint128();
        emit FeeCollected(market, fee);
        Address.sendValue(treasury, fee);
    }

    /// @notice Send BNB that arrived without a deposit (selfdestruct, a block reward) to the treasury:
    /// it is nobody's stake. Anyone may call it.
    function sweepExcess() external nonReentrant {
        uint256 excess = address(this).balance - _ledger.liabilities;
        if (excess == 0) revert NoExcess();
        emit ExcessSwept(excess);
        Address.sendValue(treasury, excess);
    }

    // ---------------------------------------------------------------- views

    /// @notice A market's key: its id and its close, so nobody can open a market under a known id with
    /// another deadline.
    function marketKey(bytes32 market, uint40 closesAt) public pure returns (bytes32) {
        return keccak256(abi.encode(market, closesAt));
    }

    function liabilities() external view returns (uint256) {
        return _ledger.liabilities;
    }

    function nextStakeId() external view returns (uint256) {
        return _ledger.nextStakeId;
    }

    function paused() external view returns (bool) {
        return _ledger.paused;
    }

    /// @notice The least a dispute of this market needs now: the larger of disputeBondMin and
    /// disputeBondBps of its pool (earlier disputes' bonds included), rounded down.
    function disputeBond(bytes32 market) external view returns (uint256) {
        return _disputeBond(markets[market].pool);
    }

    /// @notice What can still be settled (payout wei) before the bucket refills.
    function settlementAllowance() public view returns (uint256) {
        Bucket memory bucket = _bucket;
        uint256 level = bucket.level + ((block.timestamp - bucket.updatedAt) * settlementRefillPerHour) / 1 hours;
        return level < settlementCapacity ? level : settlementCapacity;
    }

    // ---------------------------------------------------------------- internals

    function _claim(Claim calldata c) private {
        StakeRef calldata s = c.stake;
        Market storage m = markets[s.market];
        if (m.state != State.Settled || block.timestamp < m.claimableAt) revert NotClaimable(s.market);
        if (c.payout == 0) revert ZeroAmount();
        bytes32 leaf = keccak256(bytes.concat(keccak256(abi.encode(s.stakeId, c.payout))));
        if (!MerkleProof.verifyCalldata(c.proof, m.payoutRoot, leaf)) revert InvalidProof();
        _takeStake(s);
        uint256 paid = m.paid + c.payout;
        if (paid > m.payoutTotal) revert PayoutExceedsTotal(s.market);
        m.paid = uint128(paid);
        emit Claimed(s.stakeId, s.market, s.owner, c.payout);
        _pay(s.owner, c.payout, s.stakeId);
    }

    function _refund(StakeRef calldata s) private {
        Market storage m = markets[s.market];
        State state = m.state;
        if (state == State.Open) {
            // The escape hatch: no settlement by ESCAPE_DELAY after the close, so the whole market refunds.
            if (block.timestamp < uint256(m.closesAt) + ESCAPE_DELAY) revert NotRefundable(s.market);
            m.state = State.Refunding;
            emit Escaped(s.market);
        } else if (state != State.Refunding) {
            revert NotRefundable(s.market);
        }
        _takeStake(s);
        m.pool -= s.amount.toUint128();
        emit Refunded(s.stakeId, s.market, s.owner, s.amount);
        _pay(s.owner, s.amount, s.stakeId);
    }

    /// Marks an open stake done (paid or refunded), once: its hash goes to 0.
    function _takeStake(StakeRef calldata s) private {
        if (s.stakeId == 0 || stakes[s.stakeId] != _stakeHash(s.owner, s.market, s.amount)) {
            revert StakeMismatch(s.stakeId);
        }
        delete stakes[s.stakeId];
    }

    /// Push `amount` with a fixed gas cap and no return data copied (a recipient cannot burn more than
    /// the cap, nor bomb us with return data). A push that fails becomes the owner's credit.
    function _pay(address to, uint256 amount, uint256 stakeId) private {
        // Enough gas must be left for the recipient to get the whole cap (63/64 rule), or a relayer could
        // starve the call on purpose and turn every payout into a credit; and enough after it to record
        // the credit, or a recipient that burns only outside a gas estimate (where the base fee is 0)
        // would make an estimated claim run out of gas.
        if (gasleft() < (PAYOUT_GAS_CAP * 64) / 63 + _AFTER_PUSH_GAS) revert InsufficientGas();
        _ledger.liabilities -= amount.toUint128();
        bool ok;
        uint256 cap = PAYOUT_GAS_CAP;
        // solhint-disable-next-line no-inline-assembly
        assembly ("memory-safe") {
            ok := call(cap, to, amount, 0, 0, 0, 0)
        }
        if (!ok) {
            _ledger.liabilities += amount.toUint128();
            credits[to] += amount;
            emit Credited(to, stakeId, amount);
        }
    }

    /// A deposit into a settled or refunding market: a dispute if its settlement is pending, else refused.
    /// The settlement is withdrawn (state Open, its commitment cleared: nothing can claim, collect or
    /// veto it) and the count answered, for the event. Outcome and verdict hash stay until the next one.
    function _dispute(bytes32 key, Market storage m) private returns (uint8 disputes) {
        State state = m.state;
        if (state != State.Settled || block.timestamp >= m.claimableAt) revert MarketNotOpen(key, state);
        disputes = m.disputes;
        if (disputes >= MAX_DISPUTES) revert DisputesExhausted(key);
        // Past the settlement window the operator could not answer: a dispute would void the market.
        uint256 deadline = uint256(m.closesAt) + ESCAPE_DELAY;
        if (block.timestamp >= deadline) revert SettlementWindowOver(key, deadline);
        uint256 bond = _disputeBond(m.pool);
        if (msg.value < bond) revert BondTooLow(msg.value, bond);
        ++disputes;
        m.disputes = disputes;
        m.state = State.Open;
        m.claimableAt = 0;
        m.payoutRoot = bytes32(0);
        m.payoutTotal = 0;
        m.fee = 0;
    }

    function _disputeBond(uint256 pool) private view returns (uint256 bond) {
        bond = (pool * disputeBondBps) / 10_000;
        if (bond < disputeBondMin) bond = disputeBondMin;
    }

    function _settleable(bytes32 market) private view returns (Market storage m) {
        m = markets[market];
        State state = m.state;
        bool pendingSettlement = state == State.Settled && block.timestamp < m.claimableAt;
        if (state != State.Open && !pendingSettlement) revert NotSettleable(market);
        uint256 deadline = uint256(m.closesAt) + ESCAPE_DELAY;
        if (block.timestamp >= deadline) revert SettlementWindowOver(market, deadline);
    }

    function _consumeSettlementAllowance(uint256 amount) private {
        uint256 available = settlementAllowance();
        if (amount > available) revert SettlementRateLimited(amount, available);
        _bucket = Bucket(uint128(available - amount), uint40(block.timestamp));
    }

    function _stakeHash(address owner, bytes32 market, uint256 amount) private pure returns (bytes32) {
        return keccak256(abi.encode(owner, market, amount));
    }

    function _setOperator(address operator_) private {
        if (operator_ == address(0)) revert ZeroAddress();
        if (operator_ == owner()) revert OperatorIsAdmin();
        operator = operator_;
        emit OperatorSet(operator_);
    }

    function _setGuardian(address guardian_) private {
        if (guardian_ == address(0)) revert ZeroAddress();
        guardian = guardian_;
        emit GuardianSet(guardian_);
    }

    function _setSettlementLimit(uint128 capacity, uint128 refillPerHour) private {
        if (
            capacity < MIN_SETTLEMENT_CAPACITY || capacity > MAX_SETTLEMENT_CAPACITY || refillPerHour == 0
                || refillPerHour > capacity
        ) revert LimitOutOfBounds();
        settlementCapacity = capacity;
        settlementRefillPerHour = refillPerHour;
        emit SettlementLimitSet(capacity, refillPerHour);
    }

    function _setMinPayoutDelay(uint32 delay) private {
        if (delay < MIN_PAYOUT_DELAY || delay > MAX_PAYOUT_DELAY) revert DelayOutOfBounds(delay);
        minPayoutDelay = delay;
        emit MinPayoutDelaySet(delay);
    }
}
