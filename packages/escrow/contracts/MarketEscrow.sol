// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {AggregatorProxyInterface} from "./feeds/AggregatorProxyInterface.sol";
import {RoundInForce} from "./lib/RoundInForce.sol";

/// @title MarketEscrow
/// @notice Holds every stake of BNB Predict in per-market pools, and knows what each market is: an oracle
/// round or a price market settles from its coin's Chainlink feed, on anyone's call, by the contract's own
/// rules and payouts; a judged market settles by the operator's committed verdict and payout list, under
/// the guardian's veto and its own bettors' disputes. Money leaves only to the owner of a stake or, as a
/// market's fee and nothing more, to a treasury fixed at deploy.
/// Design and threat model: docs/decisions/031-an-escrow-that-knows-what-it-settles.md, docs/custody.md.
/// @dev Not upgradeable: a new version is a new deployment.
// One mapping per thing a market has (its sides, terms, readings, judgement), so each call touches only
// the slots of its kind: more state declarations than the linter's default.
// solhint-disable-next-line max-states-count
contract MarketEscrow is Ownable2Step, ReentrancyGuardTransient {
    using SafeCast for uint256;
    using SafeCast for int256;

    // ---------------------------------------------------------------- constants

    /// @notice Most a settlement may keep as fee: 10 %, as PancakeSwap's. A price kind's rounding dust
    /// goes to the fee on top, once its last winner has claimed (it is at most one wei per winner).
    uint256 public constant MAX_FEE_BPS = 1000;
    /// @notice The least stake of a judged or price market's bet or creation.
    uint256 public constant MIN_MARKET_DEPOSIT = 0.005 ether;
    /// @notice The least stake of a round bet.
    uint256 public constant MIN_ROUND_DEPOSIT = 0.01 ether;
    /// @notice A market unsettled this long after its deposits close (a round's lock, a market's deadline)
    /// refunds every stake, on anyone's call.
    uint256 public constant ESCAPE_DELAY = 7 days;
    /// @notice Latest close a deposit may name, from its block: the longest market (24 h) with room.
    uint256 public constant MAX_BETTING_PERIOD = 2 days;
    /// @notice Bounds of a round's span from its lock to its close.
    uint256 public constant MIN_ROUND_SPAN = 1 minutes;
    uint256 public constant MAX_ROUND_SPAN = 1 days;
    /// @notice Gas forwarded with a pushed payout: a Safe's or a smart account's receive fits, a gas
    /// burner costs the caller at most this, once. A push that fails becomes a credit to withdraw.
    uint256 public constant PAYOUT_GAS_CAP = 50_000;
    /// @dev Gas a payout must have beyond the cap: the call's own cost (value, cold account, an EIP-7702
    /// delegation) and, after the push, its failure path (a new credit, its event, the return).
    uint256 private constant _AFTER_PUSH_GAS = 60_000;
    /// @notice Gas a batch needs per item before it starts: what one push needs left (the cap, the
    /// 63/64 rule and its failure path) with the item's own work before it, its worst case (a market's
    /// first claim and first credit, cold slots, a proof): 60k. Each item spends less than this, so a
    /// batch that starts with it finishes, and one with less fails before any work.
    uint256 public constant BATCH_ITEM_GAS = (PAYOUT_GAS_CAP * 64) / 63 + _AFTER_PUSH_GAS + 60_000;
    /// @notice Bounds of the delay between a judged settlement and its first payout (the review window).
    uint256 public constant MIN_PAYOUT_DELAY = 1 minutes;
    uint256 public constant MAX_PAYOUT_DELAY = 7 days;
    /// @notice A dispute leaves the operator at least this long to answer, past the settlement window.
    uint256 public constant ANSWER_WINDOW = 1 days;
    /// @notice Bounds of the settlement rate limit (a token bucket of payout wei, refilled hourly).
    uint256 public constant MIN_SETTLEMENT_CAPACITY = 0.1 ether;
    uint256 public constant MAX_SETTLEMENT_CAPACITY = 10_000 ether;
    /// @notice Bounds of the dispute bond's floor.
    uint256 public constant MIN_DISPUTE_BOND_MIN = 0.001 ether;
    uint256 public constant MAX_DISPUTE_BOND_MIN = 10 ether;
    /// @notice Most of a market's stakes a dispute bond may ask: 20 %.
    uint256 public constant MAX_DISPUTE_BOND_BPS = 2000;
    /// @notice Bounds of the age a feed's price may have at the instant it decides.
    uint256 public constant MIN_PRICE_AGE = 10 seconds;
    uint256 public constant MAX_PRICE_AGE = 1 days;
    /// @notice Most coins a deployment has feeds for.
    uint256 public constant MAX_COINS = 16;

    /// @notice Sides a bet takes: YES (a round's UP) and NO (DOWN). A dispute bond takes none (0).
    uint8 public constant SIDE_YES = 1;
    uint8 public constant SIDE_NO = 2;
    /// @notice What a `Deposited` event pays for.
    uint8 public constant DEPOSIT_CREATE = 1;
    uint8 public constant DEPOSIT_BET = 2;
    uint8 public constant DEPOSIT_ROUND = 3;
    uint8 public constant DEPOSIT_DISPUTE = 4;
    /// @notice A price kind's outcome: a winning side (SIDE_YES, SIDE_NO) or why every stake is refunded.
    uint8 public constant REFUND_DRAW = 3;
    uint8 public constant REFUND_NO_WINNER = 4;
    uint8 public constant REFUND_STALE = 5;
    uint8 public constant REFUND_NOT_POSITIVE = 6;

    // ---------------------------------------------------------------- types

    enum Kind {
        None,
        /// UP/DOWN on a coin from its lock to its close; key from its terms, so anyone opens it.
        Round,
        /// YES/NO on a coin's price at a deadline against a target; key bound to its creator.
        PriceMarket,
        /// YES/NO on a question a judge decides; key bound to its creator.
        Judged
    }

    enum State {
        None,
        Open,
        /// Settled: a price kind's payouts are open; a judged market's open at `claimableAt`.
        Settled,
        /// A judged market's pending settlement sent back, by a bettor's dispute or the operator's
        /// withdrawal: payouts closed until the operator settles it anew or voids it.
        Reopened,
        Refunding
    }

    // Laid out by use, not size: a deposit reads and writes slot 0 only; a settlement writes what its
    // winners share and the fee in one fresh slot, a claim the first three.
    // solhint-disable-next-line gas-struct-packing
    struct Market {
        /// Stakes in, less stakes refunded.
        uint128 pool;
        /// Deposits close at this time: a market's deadline, a round's lock.
        uint40 closesAt;
        /// Payouts open at this time. A judged market's guardian may veto and its bettors dispute until then.
        uint40 claimableAt;
        Kind kind;
        State state;
        /// A price kind's outcome (a winning side or a REFUND_ reason); a judged market's verdict, as the
        /// server codes it (opaque to the contract).
        uint8 outcome;
        /// A price kind's coin: the index of its feed.
        uint8 coin;
        /// A judged market's payout list total; a price kind's winners' share, pool less fee.
        uint128 payoutTotal;
        /// The treasury's share, sent once the settlement is final; 0 once sent.
        uint128 fee;
        uint128 paid;
        /// A price kind's winning stakes claimed so far: at the winning side's total, the dust is the fee's.
        uint128 winnersClaimed;
    }

    /// Each side's stakes, for the price kinds (the contract computes their payouts).
    struct Sides {
        uint128 yes;
        uint128 no;
    }

    /// What a price kind reads: the instant of its deciding price (a round's close, a market's deadline)
    /// and, for a price market, the target it is compared with (in the feed's units) and how.
    struct PriceTerms {
        int192 target;
        uint40 decidesAt;
        bool above;
    }

    /// A feed round a price settlement proved in force at its instant, with its price.
    struct Reading {
        uint80 roundId;
        int128 answer;
        uint40 updatedAt;
    }

    struct Readings {
        Reading lock;
        Reading close;
    }

    /// A judged market's commitment and disputes.
    struct Judgement {
        bytes32 contentHash;
        /// Root of the payout list: a StandardMerkleTree of (uint256 stakeId, uint256 amount).
        bytes32 payoutRoot;
        /// Hash of the verdict with its evidence bundle, as the market's Evidence panel shows it.
        bytes32 verdictHash;
        /// Dispute bonds in the pool: never drawn on the settlement bucket.
        uint128 bonds;
        /// The most this market's settlements have drawn on the bucket: an amendment draws only above it.
        uint128 drawn;
        /// A dispute's answer deadline; the settlement window ends at the later of it and close + ESCAPE_DELAY.
        uint40 answerBy;
        /// Disputes so far: one per owner, so as many as the market has bettors (never a shared budget).
        uint32 disputes;
    }

    /// A stake as deposited: what a claim or a refund names, checked against the stored hash. Only ever
    /// calldata, where every field takes a word whatever the order.
    // solhint-disable-next-line gas-struct-packing
    struct StakeRef {
        uint256 stakeId;
        address owner;
        bytes32 market;
        uint256 amount;
        uint8 side;
    }

    struct Claim {
        StakeRef stake;
        /// A judged market's stake: its amount in the payout list, with its proof. A price kind's claim
        /// names none (0 and no proof): the contract computes it.
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

    /// The deployment's settings, fixed but for the operator, the guardian and the judged markets' limits.
    struct Config {
        address admin;
        address operator;
        address guardian;
        address payable treasury;
        uint128 settlementCapacity;
        uint128 settlementRefillPerHour;
        uint32 minPayoutDelay;
        uint128 disputeBondMin;
        uint16 disputeBondBps;
        uint16 roundFeeBps;
        uint16 priceMarketFeeBps;
        uint32 maxPriceAge;
        /// Each coin's Chainlink proxy (AggregatorV3 with phases), by coin index.
        AggregatorProxyInterface[] feeds;
    }

    // ---------------------------------------------------------------- storage

    // solhint-disable-next-line immutable-vars-naming
    address payable public immutable treasury;
    /// @notice A dispute's bond is the larger of this and disputeBondBps of the market's stakes.
    // solhint-disable-next-line immutable-vars-naming
    uint128 public immutable disputeBondMin;
    // solhint-disable-next-line immutable-vars-naming
    uint16 public immutable disputeBondBps;
    /// @notice The fee a round's and a price market's settlement keeps, in basis points of the pool.
    // solhint-disable-next-line immutable-vars-naming
    uint16 public immutable roundFeeBps;
    // solhint-disable-next-line immutable-vars-naming
    uint16 public immutable priceMarketFeeBps;
    /// @notice A feed's price decides only if updated at most this long before its instant.
    // solhint-disable-next-line immutable-vars-naming
    uint32 public immutable maxPriceAge;
    // solhint-disable-next-line immutable-vars-naming
    uint8 public immutable coinCount;
    address public operator;
    address public guardian;
    uint32 public minPayoutDelay;
    uint128 public settlementCapacity;
    uint128 public settlementRefillPerHour;

    Ledger private _ledger;
    Bucket private _bucket;

    /// @notice Each coin's feed, fixed at deployment.
    mapping(uint8 coin => AggregatorProxyInterface) public feeds;
    mapping(bytes32 market => Market) public markets;
    mapping(bytes32 market => Sides) public sides;
    mapping(bytes32 market => PriceTerms) public priceTerms;
    /// @notice The readings a price settlement proved: a round's lock and close; a price market's
    /// deadline as the close (its lock reading stays zero).
    mapping(bytes32 market => Readings) public readings;
    mapping(bytes32 market => Judgement) public judgements;
    /// @notice Whether an owner has disputed a judged market: once per owner.
    mapping(bytes32 market => mapping(address owner => bool)) public disputed;
    /// keccak256(abi.encode(owner, market, amount, side)) while the stake is open; 0 once paid or refunded.
    mapping(uint256 stakeId => bytes32) public stakes;
    /// Payouts and refunds whose push failed, for their owner to withdraw.
    mapping(address owner => uint256) public credits;

    // ---------------------------------------------------------------- events

    event RoundOpened(bytes32 indexed market, uint8 coin, uint40 lockAt, uint40 closeAt);
    event PriceMarketCreated(
        bytes32 indexed market,
        address indexed creator,
        bytes32 id,
        uint8 coin,
        int192 target,
        bool above,
        uint40 closesAt
    );
    event JudgedMarketCreated(
        bytes32 indexed market,
        address indexed creator,
        bytes32 id,
        uint40 closesAt,
        bytes32 contentHash
    );
    event Deposited(
        uint256 indexed stakeId,
        bytes32 indexed market,
        address indexed owner,
        uint256 amount,
        uint8 kind,
        uint8 side,
        bytes32 ref
    );
    /// A price kind settled from its feed: its outcome (a side, or a REFUND_ reason with every stake
    /// refunded), the readings proved (a price market's lock fields are 0) and what its winners share.
    event PriceSettled(
        bytes32 indexed market,
        uint8 outcome,
        uint80 lockRoundId,
        int256 lockPrice,
        uint80 closeRoundId,
        int256 closePrice,
        uint256 payoutTotal,
        uint256 fee
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
    /// The bond stake `stakeId` of `owner` sent the market's pending settlement back; the operator answers
    /// by `answerBy` at the latest.
    event Disputed(
        bytes32 indexed market,
        uint256 indexed stakeId,
        address indexed owner,
        uint32 disputes,
        uint256 answerBy
    );
    event SettlementWithdrawn(bytes32 indexed market);
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
    error NotOperator();
    error NotGuardian();
    error EnforcedPause();
    error ExpectedPause();
    error DirectTransfer();
    error RenounceDisabled();
    error OperatorIsAdmin();
    error BadConfig();
    error BelowMinimum(uint256 sent, uint256 minimum);
    error BadSide(uint8 side);
    error UnknownCoin(uint8 coin);
    error BadTarget(int256 target);
    error BadRoundSpan(uint256 lockAt, uint256 closeAt);
    error BettingClosed(uint256 closesAt);
    error CloseTooFar(uint256 closesAt, uint256 latest);
    error MarketExists(bytes32 market);
    error NoSuchMarket(bytes32 market);
    error WrongKind(bytes32 market, Kind kind);
    error MarketNotOpen(bytes32 market, State state);
    error StakeMismatch(uint256 stakeId);
    error NotStakeOwner(uint256 stakeId);
    error MarketNotClosed(bytes32 market, uint256 closesAt);
    error NotSettleable(bytes32 market);
    error SettlementWindowOver(bytes32 market, uint256 deadline);
    error InvalidRoot();
    error PoolMismatch(uint256 pool, uint256 payoutTotalPlusFee);
    error FeeTooHigh(uint256 fee, uint256 maxFee);
    error DelayOutOfBounds(uint256 delay);
    error SettlementRateLimited(uint256 needed, uint256 available);
    error NotVetoable(bytes32 market);
    error NotDisputable(bytes32 market);
    error AlreadyDisputed(bytes32 market, address owner);
    error BondMismatch(uint256 sent, uint256 bond);
    error NotClaimable(bytes32 market);
    error NotAWinner(uint256 stakeId);
    error PayoutNamed();
    error InvalidProof();
    error PayoutExceedsTotal(bytes32 market);
    error NotRefundable(bytes32 market);
    error InsufficientGas();
    error NothingToWithdraw();
    error NoFee(bytes32 market);
    error NoExcess();
    error LimitOutOfBounds();

    // ---------------------------------------------------------------- roles

    modifier onlyOperator() {
        if (msg.sender != operator) revert NotOperator();
        _;
    }

    modifier whenNotPaused() {
        if (_ledger.paused) revert EnforcedPause();
        _;
    }

    constructor(Config memory config) Ownable(config.admin) {
        if (config.treasury == address(0)) revert ZeroAddress();
        if (
            config.disputeBondMin < MIN_DISPUTE_BOND_MIN || config.disputeBondMin > MAX_DISPUTE_BOND_MIN
                || config.disputeBondBps > MAX_DISPUTE_BOND_BPS || config.roundFeeBps > MAX_FEE_BPS
                || config.priceMarketFeeBps > MAX_FEE_BPS || config.maxPriceAge < MIN_PRICE_AGE
                || config.maxPriceAge > MAX_PRICE_AGE || config.feeds.length == 0 || config.feeds.length > MAX_COINS
        ) revert BadConfig();
        for (uint256 i = 0; i < config.feeds.length; ++i) {
            if (address(config.feeds[i]).code.length == 0) revert BadConfig();
            feeds[uint8(i)] = config.feeds[i];
        }
        coinCount = uint8(config.feeds.length);
        treasury = config.treasury;
        disputeBondMin = config.disputeBondMin;
        disputeBondBps = config.disputeBondBps;
        roundFeeBps = config.roundFeeBps;
        priceMarketFeeBps = config.priceMarketFeeBps;
        maxPriceAge = config.maxPriceAge;
        _setOperator(config.operator);
        _setGuardian(config.guardian);
        _setSettlementLimit(config.settlementCapacity, config.settlementRefillPerHour);
        _bucket = Bucket(config.settlementCapacity, uint40(block.timestamp));
        _setMinPayoutDelay(config.minPayoutDelay);
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

    /// @notice Bet msg.value on `side` of `coin`'s round from `lockAt` to `closeAt`, opening the round
    /// with its first bet. The round's key is its terms' (`roundKey`): anyone computes it, and every bet
    /// on the same terms joins the same pool. Bets close at the lock.
    function betRound(uint8 coin, uint40 lockAt, uint40 closeAt, uint8 side, bytes32 ref)
        external
        payable
        returns (bytes32 key, uint256 stakeId)
    {
        key = roundKey(coin, lockAt, closeAt);
        Market storage m = markets[key];
        if (m.kind == Kind.None) {
            _requireCoin(coin);
            if (closeAt < uint256(lockAt) + MIN_ROUND_SPAN || closeAt > uint256(lockAt) + MAX_ROUND_SPAN) {
                revert BadRoundSpan(lockAt, closeAt);
            }
            _requireCloseInRange(lockAt);
            m.kind = Kind.Round;
            m.state = State.Open;
            m.closesAt = lockAt;
            m.coin = coin;
            priceTerms[key] = PriceTerms(0, closeAt, false);
            emit RoundOpened(key, coin, lockAt, closeAt);
        }
        stakeId = _bet(key, m, side, DEPOSIT_ROUND, ref);
    }

    /// @notice Create a price market, YES if `coin`'s feed price at `closesAt` is strictly above `target`
    /// (`above`) or strictly below it (!`above`), else NO, with msg.value its creator's bet on `side`.
    /// Its key is bound to its creator (`marketKey(Kind.PriceMarket, msg.sender, id)`): nobody else can
    /// take it. `target` is in the feed's units (Chainlink's USD feeds: 8 decimals).
    function createPriceMarket(
        bytes32 id,
        uint8 coin,
        int192 target,
        bool above,
        uint40 closesAt,
        uint8 side,
        bytes32 ref
    ) external payable returns (bytes32 key, uint256 stakeId) {
        _requireCoin(coin);
        if (target <= 0) revert BadTarget(target);
        key = marketKey(Kind.PriceMarket, msg.sender, id);
        Market storage m = _newMarket(key, Kind.PriceMarket, closesAt);
        m.coin = coin;
        priceTerms[key] = PriceTerms(target, closesAt, above);
        emit PriceMarketCreated(key, msg.sender, id, coin, target, above, closesAt);
        stakeId = _bet(key, m, side, DEPOSIT_CREATE, ref);
    }

    /// @notice Create a judged market on the question `contentHash` commits to, closing at `closesAt`,
    /// with msg.value its creator's bet on `side`. Its key is bound to its creator.
    function createJudgedMarket(bytes32 id, uint40 closesAt, bytes32 contentHash, uint8 side, bytes32 ref)
        external
        payable
        returns (bytes32 key, uint256 stakeId)
    {
        key = marketKey(Kind.Judged, msg.sender, id);
        Market storage m = _newMarket(key, Kind.Judged, closesAt);
        judgements[key].contentHash = contentHash;
        emit JudgedMarketCreated(key, msg.sender, id, closesAt, contentHash);
        stakeId = _bet(key, m, side, DEPOSIT_CREATE, ref);
    }

    /// @notice Bet msg.value on `side` of an open market or round, before its close. The bettor is
    /// msg.sender, whatever it is (an EOA, a Safe, an EIP-7702 account): its payouts and refunds go back
    /// to it.
    function bet(bytes32 market, uint8 side, bytes32 ref) external payable returns (uint256 stakeId) {
        Market storage m = markets[market];
        if (m.kind == Kind.None) revert NoSuchMarket(market);
        stakeId = _bet(market, m, side, m.kind == Kind.Round ? DEPOSIT_ROUND : DEPOSIT_BET, ref);
    }

    /// @notice Dispute a judged market's pending settlement (before its payouts open) with a bond of
    /// exactly `disputeBond(market)`, as the owner of an open stake of that market (`stake`), once per
    /// owner. The bond is a stake of the market (side 0) whose fate the next settlement's payout list
    /// decides. Payouts stay closed until the operator answers (settles anew or voids); the answer may
    /// come up to ANSWER_WINDOW after the dispute even past the settlement window. Not blocked by pause.
    function dispute(StakeRef calldata stake, bytes32 ref) external payable returns (uint256 stakeId) {
        bytes32 key = stake.market;
        Market storage m = markets[key];
        if (m.kind != Kind.Judged) revert WrongKind(key, m.kind);
        if (m.state != State.Settled || block.timestamp >= m.claimableAt) revert NotDisputable(key);
        if (stake.owner != msg.sender) revert NotStakeOwner(stake.stakeId);
        _requireStake(stake);
        if (disputed[key][msg.sender]) revert AlreadyDisputed(key, msg.sender);
        Judgement storage j = judgements[key];
        uint256 bond = _disputeBond(m.pool - j.bonds);
        if (msg.value != bond) revert BondMismatch(msg.value, bond);
        disputed[key][msg.sender] = true;

        uint32 disputes = j.disputes + 1;
        j.disputes = disputes;
        j.bonds += msg.value.toUint128();
        uint256 answerBy = block.timestamp + ANSWER_WINDOW;
        if (answerBy > j.answerBy) j.answerBy = uint40(answerBy);
        _reopen(m, j);

        m.pool += msg.value.toUint128();
        stakeId = _recordStake(key, 0, DEPOSIT_DISPUTE, ref);
        emit Disputed(key, stakeId, msg.sender, disputes, j.answerBy);
    }

    /// @notice Pay a settled market's stake. Anyone may call it (the server's relayer, the bettor, a
    /// friend): the money goes to the stake's owner only.
    function claim(Claim calldata c) external nonReentrant {
        _requireStake(c.stake);
        _claim(c);
    }

    /// @notice Claims in one call. A stake already paid or refunded (by anyone, before this batch) is
    /// skipped; the gas left must cover every item's worst case before the first.
    function claimMany(Claim[] calldata batch) external nonReentrant {
        _requireBatchGas(batch.length);
        for (uint256 i = 0; i < batch.length; ++i) {
            if (_isSpent(batch[i].stake)) continue;
            _claim(batch[i]);
        }
    }

    /// @notice Give a stake back to its owner: its market was voided, vetoed, refunded by its price
    /// outcome, or never settled in its window (then the whole market turns to refunds). Anyone may call it.
    function refund(StakeRef calldata s) external nonReentrant {
        _requireStake(s);
        _refund(s);
    }

    /// @notice Refunds in one call, skipping spent stakes, with the same up-front gas check as claimMany.
    function refundMany(StakeRef[] calldata batch) external nonReentrant {
        _requireBatchGas(batch.length);
        for (uint256 i = 0; i < batch.length; ++i) {
            if (_isSpent(batch[i])) continue;
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

    // ---------------------------------------------------------------- price settlement: anyone

    /// @notice Settle a round from its coin's feed: `lockRoundId` and `closeRoundId` must be the feed's
    /// rounds in force at the lock and at the close (RoundInForce: each refused id reverts, so only the
    /// right ones settle). Anyone may call it, at any time after the close while the round is open: the
    /// outcome is the feed's history, not the caller's or the hour's. Close above lock pays UP, below
    /// DOWN; equal, a stale or non-positive price, or nobody on the winning side refunds every stake.
    function settleRound(bytes32 market, uint80 lockRoundId, uint80 closeRoundId) external {
        (Market storage m, PriceTerms memory terms) = _priceSettleable(market, Kind.Round);
        AggregatorProxyInterface feed = feeds[m.coin];
        RoundInForce.Price memory lockPrice = RoundInForce.prove(feed, lockRoundId, m.closesAt, maxPriceAge);
        RoundInForce.Price memory closePrice = RoundInForce.prove(feed, closeRoundId, terms.decidesAt, maxPriceAge);
        readings[market] = Readings(_reading(lockRoundId, lockPrice), _reading(closeRoundId, closePrice));

        uint8 outcome;
        if (lockPrice.verdict == RoundInForce.Verdict.NotPositive || closePrice.verdict == RoundInForce.Verdict.NotPositive) {
            outcome = REFUND_NOT_POSITIVE;
        } else if (lockPrice.verdict == RoundInForce.Verdict.Stale || closePrice.verdict == RoundInForce.Verdict.Stale) {
            outcome = REFUND_STALE;
        } else if (closePrice.answer > lockPrice.answer) {
            outcome = SIDE_YES;
        } else if (closePrice.answer < lockPrice.answer) {
            outcome = SIDE_NO;
        } else {
            outcome = REFUND_DRAW;
        }
        _settlePrice(market, m, outcome, roundFeeBps, lockRoundId, lockPrice.answer, closeRoundId, closePrice.answer);
    }

    /// @notice Settle a price market from its coin's feed: `roundId` must be the feed's round in force at
    /// its deadline. Anyone may call it after the deadline while the market is open. YES when the price
    /// is strictly beyond the target on the market's side (above or below), else NO (equal is NO); a
    /// stale or non-positive price, or nobody on the winning side, refunds every stake.
    function settlePriceMarket(bytes32 market, uint80 roundId) external {
        (Market storage m, PriceTerms memory terms) = _priceSettleable(market, Kind.PriceMarket);
        RoundInForce.Price memory price = RoundInForce.prove(feeds[m.coin], roundId, terms.decidesAt, maxPriceAge);
        readings[market].close = _reading(roundId, price);

        uint8 outcome;
        if (price.verdict == RoundInForce.Verdict.NotPositive) {
            outcome = REFUND_NOT_POSITIVE;
        } else if (price.verdict == RoundInForce.Verdict.Stale) {
            outcome = REFUND_STALE;
        } else if (terms.above ? price.answer > terms.target : price.answer < terms.target) {
            outcome = SIDE_YES;
        } else {
            outcome = SIDE_NO;
        }
        _settlePrice(market, m, outcome, priceMarketFeeBps, 0, 0, roundId, price.answer);
    }

    // ---------------------------------------------------------------- operator: judged markets only

    /// @notice Give back a deposit of a judged market the server refused (wrong terms, a creation it does
    /// not list, a deposit nobody posted once the market's grace has passed) to its sender, and only to
    /// it, while the market is open or reopened. The stake leaves the pool, which a settlement must match.
    function refundStake(StakeRef calldata s) external onlyOperator nonReentrant {
        Market storage m = markets[s.market];
        if (m.kind != Kind.Judged) revert WrongKind(s.market, m.kind);
        if (m.state != State.Open && m.state != State.Reopened) revert MarketNotOpen(s.market, m.state);
        _requireStake(s);
        delete stakes[s.stakeId];
        m.pool -= s.amount.toUint128();
        if (s.side == 0) judgements[s.market].bonds -= s.amount.toUint128();
        emit Refunded(s.stakeId, s.market, s.owner, s.amount);
        _pay(s.owner, s.amount, s.stakeId);
    }

    /// @notice Commit a closed judged market's verdict and payout list; payouts open `delay` seconds
    /// later. Until then the guardian may veto, the operator may amend it (the same call again) and a
    /// bettor may dispute; a reopened market is answered by this call or settleAsRefund.
    /// @param payoutRoot StandardMerkleTree root over (uint256 stakeId, uint256 amount) leaves.
    /// @param fee What the treasury keeps: payoutTotal + fee must be the whole pool.
    function settle(
        bytes32 market,
        uint8 outcome,
        bytes32 verdictHash,
        bytes32 payoutRoot,
        uint128 payoutTotal,
        uint128 fee,
        uint32 delay
    ) external onlyOperator whenNotPaused {
        Market storage m = _judgedSettleable(market);
        if (block.timestamp < m.closesAt) revert MarketNotClosed(market, m.closesAt);
        if (payoutRoot == bytes32(0)) revert InvalidRoot();
        // No winners is a refund (settleAsRefund), never a sweep: payoutTotal 0 fails the fee cap.
        uint256 pool = m.pool;
        if (uint256(payoutTotal) + fee != pool) revert PoolMismatch(pool, uint256(payoutTotal) + fee);
        uint256 maxFee = (pool * MAX_FEE_BPS) / 10_000;
        if (fee > maxFee) revert FeeTooHigh(fee, maxFee);
        if (delay < minPayoutDelay || delay > MAX_PAYOUT_DELAY) revert DelayOutOfBounds(delay);
        Judgement storage j = judgements[market];
        // The bucket bounds what a stolen key can send to stakes: the bonds are bettors' own deposits,
        // so no dispute can lift a market's draw above the bucket, and an amendment draws only the
        // increase over what this market drew before.
        uint256 bonds = j.bonds;
        uint256 draw = payoutTotal > bonds ? payoutTotal - bonds : 0;
        if (draw > j.drawn) {
            _consumeSettlementAllowance(draw - j.drawn);
            j.drawn = uint128(draw);
        }

        uint256 claimableAt = block.timestamp + delay;
        m.state = State.Settled;
        m.outcome = outcome;
        m.claimableAt = uint40(claimableAt);
        m.payoutTotal = payoutTotal;
        m.paid = 0;
        m.fee = fee;
        j.payoutRoot = payoutRoot;
        j.verdictHash = verdictHash;
        emit Settled(market, outcome, verdictHash, payoutRoot, payoutTotal, fee, claimableAt);
    }

    /// @notice Withdraw a judged market's pending settlement (a verdict overturned in review) before its
    /// payouts open: they stay closed until the operator's next settlement or void lands, however late
    /// in the window, and that settlement draws on the bucket only what it adds. It does not extend the
    /// settlement window (only a bettor's dispute does), so it cannot hold a market past its escape.
    function withdrawSettlement(bytes32 market) external onlyOperator {
        Market storage m = markets[market];
        if (m.kind != Kind.Judged) revert WrongKind(market, m.kind);
        if (m.state != State.Settled || block.timestamp >= m.claimableAt) revert NotSettleable(market);
        _reopen(m, judgements[market]);
        emit SettlementWithdrawn(market);
    }

    /// @notice Void a judged market (a judge that cannot decide, nobody on the winning side, a market
    /// taken down): every stake goes back to its owner. Allowed before the close too.
    function settleAsRefund(bytes32 market, uint8 outcome, bytes32 verdictHash)
        external
        onlyOperator
        whenNotPaused
    {
        Market storage m = _judgedSettleable(market);
        m.state = State.Refunding;
        m.outcome = outcome;
        m.payoutTotal = 0;
        m.fee = 0;
        judgements[market].payoutRoot = bytes32(0);
        judgements[market].verdictHash = verdictHash;
        emit Voided(market, outcome, verdictHash);
    }

    // ---------------------------------------------------------------- guardian

    /// @notice Send a judged market's settlement whose payouts have not opened yet to refunds. A price
    /// kind has no veto: its outcome is the feed's.
    function veto(bytes32 market) external {
        if (msg.sender != guardian) revert NotGuardian();
        Market storage m = markets[market];
        if (m.kind != Kind.Judged || m.state != State.Settled || block.timestamp >= m.claimableAt) {
            revert NotVetoable(market);
        }
        m.state = State.Refunding;
        m.payoutTotal = 0;
        m.fee = 0;
        emit Vetoed(market);
    }

    /// @notice Stop new deposits and judged settlements. Price settlements, disputes, claims, refunds,
    /// withdrawals and fees go on.
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

    /// @notice The operator never becomes the admin: one key would then both settle and rotate the keys.
    function transferOwnership(address newOwner) public override onlyOwner {
        if (newOwner == operator) revert OperatorIsAdmin();
        super.transferOwnership(newOwner);
    }

    /// @notice Disabled: an admin-less contract could never be unpaused or have its keys rotated.
    function renounceOwnership() public view override onlyOwner {
        revert RenounceDisabled();
    }

    // ---------------------------------------------------------------- treasury

    /// @notice Send a final settlement's fee (and a price kind's dust, once its winners have all claimed)
    /// to the treasury. Anyone may call it.
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

    /// @notice A round's key: its kind and terms, so every bettor of the same round meets in one pool and
    /// no other kind's key can equal it.
    function roundKey(uint8 coin, uint40 lockAt, uint40 closeAt) public pure returns (bytes32) {
        return keccak256(abi.encode(Kind.Round, coin, lockAt, closeAt));
    }

    /// @notice A created market's key: its kind, its creator and the id it chose, so nobody else can take
    /// it (a copied creation lands under the copier's own key).
    function marketKey(Kind kind, address creator, bytes32 id) public pure returns (bytes32) {
        return keccak256(abi.encode(kind, creator, id));
    }

    /// @notice What a winning stake of a settled price kind is paid: stake × (pool − fee) / winning side,
    /// rounded down; 0 for any other stake.
    function pricePayout(bytes32 market, uint8 side, uint256 amount) public view returns (uint256) {
        Market storage m = markets[market];
        if ((m.kind != Kind.Round && m.kind != Kind.PriceMarket) || m.state != State.Settled || side != m.outcome) {
            return 0;
        }
        return (amount * m.payoutTotal) / _sideTotal(market, side);
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

    /// @notice The least a dispute of this judged market needs now: the larger of disputeBondMin and
    /// disputeBondBps of its stakes (bonds not counted), rounded down.
    function disputeBond(bytes32 market) external view returns (uint256) {
        return _disputeBond(markets[market].pool - judgements[market].bonds);
    }

    /// @notice When a judged market's settlement window ends: its close + ESCAPE_DELAY, or later while a
    /// dispute's answer is due.
    function settleBy(bytes32 market) public view returns (uint256) {
        uint256 deadline = uint256(markets[market].closesAt) + ESCAPE_DELAY;
        uint256 answerBy = judgements[market].answerBy;
        return answerBy > deadline ? answerBy : deadline;
    }

    /// @notice What can still be settled (payout wei) before the bucket refills.
    function settlementAllowance() public view returns (uint256) {
        Bucket memory bucket = _bucket;
        uint256 level = bucket.level + ((block.timestamp - bucket.updatedAt) * settlementRefillPerHour) / 1 hours;
        return level < settlementCapacity ? level : settlementCapacity;
    }

    // ---------------------------------------------------------------- internals: deposits

    function _newMarket(bytes32 key, Kind kind, uint40 closesAt) private returns (Market storage m) {
        m = markets[key];
        if (m.kind != Kind.None) revert MarketExists(key);
        _requireCloseInRange(closesAt);
        m.kind = kind;
        m.state = State.Open;
        m.closesAt = closesAt;
    }

    function _requireCloseInRange(uint256 closesAt) private view {
        if (closesAt <= block.timestamp) revert BettingClosed(closesAt);
        if (closesAt > block.timestamp + MAX_BETTING_PERIOD) {
            revert CloseTooFar(closesAt, block.timestamp + MAX_BETTING_PERIOD);
        }
    }

    function _requireCoin(uint8 coin) private view {
        if (coin >= coinCount) revert UnknownCoin(coin);
    }

    /// A bet into an existing market: open, before its close, at least its kind's minimum, on a side.
    function _bet(bytes32 key, Market storage m, uint8 side, uint8 depositKind, bytes32 ref)
        private
        returns (uint256 stakeId)
    {
        if (_ledger.paused) revert EnforcedPause();
        Kind kind = m.kind;
        uint256 minimum = kind == Kind.Round ? MIN_ROUND_DEPOSIT : MIN_MARKET_DEPOSIT;
        if (msg.value < minimum) revert BelowMinimum(msg.value, minimum);
        if (side != SIDE_YES && side != SIDE_NO) revert BadSide(side);
        if (m.state != State.Open) revert MarketNotOpen(key, m.state);
        if (block.timestamp >= m.closesAt) revert BettingClosed(m.closesAt);
        uint128 amount = msg.value.toUint128();
        m.pool += amount;
        if (kind != Kind.Judged) {
            Sides storage s = sides[key];
            if (side == SIDE_YES) s.yes += amount;
            else s.no += amount;
        }
        stakeId = _recordStake(key, side, depositKind, ref);
    }

    /// Records msg.value as msg.sender's stake on `side` (its market's pool is already counted).
    function _recordStake(bytes32 key, uint8 side, uint8 depositKind, bytes32 ref) private returns (uint256 stakeId) {
        Ledger memory ledger = _ledger;
        stakeId = ledger.nextStakeId;
        stakes[stakeId] = _stakeHash(msg.sender, key, msg.value, side);
        _ledger = Ledger(ledger.liabilities + msg.value.toUint128(), ledger.nextStakeId + 1, ledger.paused);
        emit Deposited(stakeId, key, msg.sender, msg.value, depositKind, side, ref);
    }

    // ---------------------------------------------------------------- internals: settlement

    function _priceSettleable(bytes32 market, Kind kind)
        private
        view
        returns (Market storage m, PriceTerms memory terms)
    {
        m = markets[market];
        if (m.kind != kind) revert WrongKind(market, m.kind);
        if (m.state != State.Open) revert NotSettleable(market);
        terms = priceTerms[market];
    }

    function _reading(uint80 roundId, RoundInForce.Price memory price) private pure returns (Reading memory) {
        return Reading(roundId, price.answer.toInt128(), uint40(price.updatedAt));
    }

    /// Records a price kind's outcome: a side with winners pays them (pool − fee, pro rata to stake);
    /// any other outcome, or a side nobody took, refunds every stake.
    function _settlePrice(
        bytes32 market,
        Market storage m,
        uint8 outcome,
        uint256 feeBps,
        uint80 lockRoundId,
        int256 lockPrice,
        uint80 closeRoundId,
        int256 closePrice
    ) private {
        if ((outcome == SIDE_YES || outcome == SIDE_NO) && _sideTotal(market, outcome) == 0) {
            outcome = REFUND_NO_WINNER;
        }
        uint256 payoutTotal;
        uint256 fee;
        m.outcome = outcome;
        m.claimableAt = uint40(block.timestamp);
        if (outcome == SIDE_YES || outcome == SIDE_NO) {
            uint256 pool = m.pool;
            fee = (pool * feeBps) / 10_000;
            payoutTotal = pool - fee;
            m.state = State.Settled;
            m.payoutTotal = uint128(payoutTotal);
            m.fee = uint128(fee);
        } else {
            m.state = State.Refunding;
        }
        emit PriceSettled(market, outcome, lockRoundId, lockPrice, closeRoundId, closePrice, payoutTotal, fee);
    }

    /// Sends a pending settlement back: its commitment cleared, so nothing can claim, collect or veto it.
    function _reopen(Market storage m, Judgement storage j) private {
        m.state = State.Reopened;
        m.claimableAt = 0;
        m.payoutTotal = 0;
        m.fee = 0;
        j.payoutRoot = bytes32(0);
    }

    function _judgedSettleable(bytes32 market) private view returns (Market storage m) {
        m = markets[market];
        if (m.kind != Kind.Judged) revert WrongKind(market, m.kind);
        State state = m.state;
        bool pendingSettlement = state == State.Settled && block.timestamp < m.claimableAt;
        if (state != State.Open && state != State.Reopened && !pendingSettlement) revert NotSettleable(market);
        uint256 deadline = settleBy(market);
        if (block.timestamp >= deadline) revert SettlementWindowOver(market, deadline);
    }

    function _consumeSettlementAllowance(uint256 amount) private {
        uint256 available = settlementAllowance();
        if (amount > available) revert SettlementRateLimited(amount, available);
        _bucket = Bucket(uint128(available - amount), uint40(block.timestamp));
    }

    // ---------------------------------------------------------------- internals: money out

    function _claim(Claim calldata c) private {
        StakeRef calldata s = c.stake;
        Market storage m = markets[s.market];
        if (m.state != State.Settled || block.timestamp < m.claimableAt) revert NotClaimable(s.market);
        uint256 payout;
        if (m.kind == Kind.Judged) {
            payout = c.payout;
            if (payout == 0) revert NotAWinner(s.stakeId);
            bytes32 leaf = keccak256(bytes.concat(keccak256(abi.encode(s.stakeId, payout))));
            if (!MerkleProof.verifyCalldata(c.proof, judgements[s.market].payoutRoot, leaf)) revert InvalidProof();
        } else {
            if (c.payout != 0 || c.proof.length != 0) revert PayoutNamed();
            if (s.side != m.outcome) revert NotAWinner(s.stakeId);
            uint256 winningSide = _sideTotal(s.market, s.side);
            payout = (s.amount * m.payoutTotal) / winningSide;
            uint256 claimed = m.winnersClaimed + s.amount;
            m.winnersClaimed = uint128(claimed);
            // The last winner's claim leaves only rounding dust of the winners' share: the fee's.
            if (claimed == winningSide) m.fee += uint128(m.payoutTotal - m.paid - payout);
        }
        delete stakes[s.stakeId];
        uint256 paid = m.paid + payout;
        if (paid > m.payoutTotal) revert PayoutExceedsTotal(s.market);
        m.paid = uint128(paid);
        emit Claimed(s.stakeId, s.market, s.owner, payout);
        _pay(s.owner, payout, s.stakeId);
    }

    function _refund(StakeRef calldata s) private {
        Market storage m = markets[s.market];
        State state = m.state;
        if (state == State.Open || state == State.Reopened) {
            // The escape hatch: no settlement in the window, so the whole market refunds. A judged market's
            // window ends at settleBy; a price kind's when a judged one's would (it can be settled until
            // then by anyone, and later too while nobody has escaped it).
            uint256 deadline = m.kind == Kind.Judged ? settleBy(s.market) : uint256(m.closesAt) + ESCAPE_DELAY;
            if (block.timestamp < deadline) revert NotRefundable(s.market);
            m.state = State.Refunding;
            emit Escaped(s.market);
        } else if (state != State.Refunding) {
            revert NotRefundable(s.market);
        }
        delete stakes[s.stakeId];
        m.pool -= s.amount.toUint128();
        emit Refunded(s.stakeId, s.market, s.owner, s.amount);
        _pay(s.owner, s.amount, s.stakeId);
    }

    function _requireStake(StakeRef calldata s) private view {
        if (s.stakeId == 0 || stakes[s.stakeId] != _stakeHash(s.owner, s.market, s.amount, s.side)) {
            revert StakeMismatch(s.stakeId);
        }
    }

    /// Whether a batch item is done already (skipped), or must be the open stake it names.
    function _isSpent(StakeRef calldata s) private view returns (bool) {
        if (s.stakeId != 0 && stakes[s.stakeId] == bytes32(0) && s.stakeId < _ledger.nextStakeId) return true;
        _requireStake(s);
        return false;
    }

    function _requireBatchGas(uint256 items) private view {
        if (gasleft() < items * BATCH_ITEM_GAS) revert InsufficientGas();
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

    // ---------------------------------------------------------------- internals: helpers

    function _sideTotal(bytes32 market, uint8 side) private view returns (uint256) {
        Sides storage s = sides[market];
        return side == SIDE_YES ? s.yes : s.no;
    }

    function _disputeBond(uint256 stakesInPool) private view returns (uint256 bond) {
        bond = (stakesInPool * disputeBondBps) / 10_000;
        if (bond < disputeBondMin) bond = disputeBondMin;
    }

    function _stakeHash(address owner, bytes32 market, uint256 amount, uint8 side) private pure returns (bytes32) {
        return keccak256(abi.encode(owner, market, amount, side));
    }

    function _setOperator(address operator_) private {
        if (operator_ == address(0)) revert ZeroAddress();
        if (operator_ == owner() || operator_ == pendingOwner()) revert OperatorIsAdmin();
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
