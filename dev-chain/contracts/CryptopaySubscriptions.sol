// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {Ownable2Step, Ownable} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";

/// @title Cryptopay subscriptions
/// @notice Recurring ERC-20 billing under a plan the merchant signed off chain (EIP-712). The customer subscribes from
/// its own wallet (the subscriber is always msg.sender) after approving this contract; anyone may then collect each
/// due period, which pulls exactly one period's amount from the subscriber to the plan's destination. Periods whose
/// grace passed unpaid are counted as missed by time alone, so a failed or gas-starved collect changes nothing and
/// nobody can make a subscriber miss a period; autoCancelAfterMissed misses in a row cancel. No loops over users;
/// customer funds never rest here.
/// @dev Version 2: a short delivery is a refused pull (the misses counted before it stay recorded); one subscription
/// per (subscriber, plan, ref), its id derived from them; every duration at most 100 years, an interval and a grace of
/// at least an hour; the destination is neither the subscriber nor this contract; an end comes after the trial; a
/// cancel, and a revoked plan's end, first record the misses before them; the currency registry only grows.
contract CryptopaySubscriptions is EIP712, Ownable2Step, ReentrancyGuard {
    /// The plan exactly as the merchant signed it (the service's EIP-712 SubscriptionPlan, in the same order).
    struct Plan {
        address merchant;
        address destination;
        address token;
        uint256 amount;
        string currency;
        string value;
        uint64 interval;
        uint64 trialPeriod;
        uint64 maxArrears;
        uint32 autoCancelAfterMissed;
        uint64 subscribeDeadline;
        uint256 planNonce;
    }

    /// One subscription. nextDue is the start of the oldest period neither paid nor missed.
    struct Subscription {
        bytes32 planId;
        address subscriber;
        address merchant;
        address token;
        address destination;
        uint256 amount;
        uint64 interval;
        uint64 grace;
        uint32 autoCancelAfterMissed;
        uint32 missedInRow;
        uint64 nextDue;
        uint64 endsAt;
        uint64 paidPeriods;
        bool active;
    }

    bytes32 public constant PLAN_TYPEHASH = keccak256(
        "SubscriptionPlan(address merchant,address destination,address token,uint256 amount,string currency,"
        "string value,uint64 interval,uint64 trialPeriod,uint64 maxArrears,uint32 autoCancelAfterMissed,"
        "uint64 subscribeDeadline,uint256 planNonce)"
    );

    /// The shortest time a period stays collectable after it starts: a keeper must have time to come by. A plan's
    /// maxArrears below it is raised to it.
    uint64 public constant MIN_GRACE = 1 hours;
    /// The shortest interval: a period a second would make collects due every block.
    uint64 public constant MIN_INTERVAL = 1 hours;
    /// The longest duration anywhere (interval, trial, grace, how far away an end may be): 100 years of 365.25 days,
    /// the service's own bound.
    uint64 public constant MAX_DURATION = 36525 days;

    uint8 public constant CANCELLED_BY_SUBSCRIBER = 0;
    uint8 public constant CANCELLED_BY_MERCHANT = 1;
    uint8 public constant CANCELLED_AUTOMATICALLY = 2;
    uint8 public constant CANCELLED_ENDED = 3;

    /// The token a value plan (currency + value) bills for its currency code, keyed by keccak256 of the code.
    mapping(bytes32 currency => address token) public currencyToken;
    /// Plans their merchant revoked: revoked[merchant][planId].
    mapping(address merchant => mapping(bytes32 planId => bool)) public revoked;

    mapping(bytes32 id => Subscription) private subscriptions;

    event Subscribed(
        bytes32 indexed id,
        bytes32 indexed planId,
        address indexed subscriber,
        address merchant,
        address token,
        address destination,
        uint256 amount,
        uint64 firstDue,
        uint64 endsAt,
        bytes32 ref
    );
    event Charged(
        bytes32 indexed id,
        bytes32 indexed planId,
        address indexed subscriber,
        uint64 periodStart,
        uint64 paidPeriods,
        uint256 amount
    );
    event Missed(
        bytes32 indexed id,
        bytes32 indexed planId,
        address indexed subscriber,
        uint64 firstPeriodStart,
        uint32 periods,
        uint32 missedInRow
    );
    event Cancelled(bytes32 indexed id, bytes32 indexed planId, address indexed subscriber, address by, uint8 reason);
    event PlanRevoked(address indexed merchant, bytes32 indexed planId);
    event CurrencyTokenSet(string currency, address token);

    error InvalidMerchantSignature();
    error PlanIsRevoked();
    error InvalidPlan(string reason);
    error UnsupportedCurrency(string currency);
    error InvalidEnd();
    error FirstPaymentFailed();
    error FeeOnTransferToken();
    error UnknownSubscription();
    error NotActive();
    error NotAllowed();
    error AlreadySubscribed(bytes32 id);
    error CurrencyAlreadySet(string currency);
    error PullRefused();

    /// @param currencies currency codes value plans may bill, with the token of each in `tokens`
    constructor(address owner, string[] memory currencies, address[] memory tokens)
        EIP712("Cryptopay Subscriptions", "1")
        Ownable(owner)
    {
        if (currencies.length != tokens.length) revert InvalidPlan("currencies and tokens differ in length");
        for (uint256 i = 0; i < currencies.length; i++) {
            _setCurrencyToken(currencies[i], tokens[i]);
        }
    }

    // ---- merchant and operator ---------------------------------------------------------------------------------

    /// Stops a plan of the caller: no one subscribes to it any more, and its subscriptions end at their next collect.
    function revokePlan(bytes32 planId_) external {
        revoked[msg.sender][planId_] = true;
        emit PlanRevoked(msg.sender, planId_);
    }

    /// Which token value plans in `currency` bill, for a code not registered yet: the registry only grows, so a
    /// signed value plan always bills the token it was signed for. Existing subscriptions keep theirs anyway.
    function setCurrencyToken(string calldata currency, address token) external onlyOwner {
        _setCurrencyToken(currency, token);
    }

    // ---- subscriber ----------------------------------------------------------------------------------------------

    /// Subscribes msg.sender to `plan`. Without a trial the first period is pulled now (approve first).
    /// subscribeDeadline is signed but not enforced here: it counts from the merchant's invitation, which only the
    /// merchant's service knows (it stops offering an expired invitation).
    /// One subscription per (subscriber, plan, ref): its id is derived from them, and subscribing again is refused
    /// (a double click never bills twice). Durations are at most MAX_DURATION, the interval at least MIN_INTERVAL; the
    /// destination is neither the subscriber nor this contract (tokens would go nowhere).
    /// @param ref keccak256("cryptopay.subscriber:" + subscriber id) for an invitation or a sign-up
    /// @param endsAt when billing ends (no period starts at or after it), after the trial; 0 for never
    function subscribe(Plan calldata plan, bytes calldata merchantSig, bytes32 ref, uint64 endsAt)
        external
        nonReentrant
        returns (bytes32 id)
    {
        bytes32 pid = planId(plan);
        if (ECDSA.recover(_hashTypedDataV4(pid), merchantSig) != plan.merchant) revert InvalidMerchantSignature();
        if (revoked[plan.merchant][pid]) revert PlanIsRevoked();
        if (plan.interval < MIN_INTERVAL) revert InvalidPlan("interval is under an hour");
        if (plan.interval > MAX_DURATION || plan.trialPeriod > MAX_DURATION || plan.maxArrears > MAX_DURATION) {
            revert InvalidPlan("a duration is over 100 years");
        }
        if (plan.destination == address(0) || plan.destination == msg.sender || plan.destination == address(this)) {
            revert InvalidPlan("the destination is none, the subscriber or this contract");
        }
        uint256 firstDue = block.timestamp + plan.trialPeriod;
        if (endsAt != 0 && (endsAt <= firstDue || endsAt > block.timestamp + MAX_DURATION)) revert InvalidEnd();
        (address token, uint256 amount) = _billing(plan);

        id = keccak256(abi.encode(block.chainid, address(this), pid, msg.sender, ref));
        Subscription storage s = subscriptions[id];
        if (s.subscriber != address(0)) revert AlreadySubscribed(id);
        s.planId = pid;
        s.subscriber = msg.sender;
        s.merchant = plan.merchant;
        s.token = token;
        s.destination = plan.destination;
        s.amount = amount;
        s.interval = plan.interval;
        s.grace = graceOf(plan.maxArrears);
        s.autoCancelAfterMissed = plan.autoCancelAfterMissed;
        s.nextDue = SafeCast.toUint64(firstDue);
        s.endsAt = endsAt;
        s.active = true;
        emit Subscribed(id, pid, msg.sender, plan.merchant, token, plan.destination, amount, s.nextDue, endsAt, ref);

        if (plan.trialPeriod == 0 && !_charge(id, s)) revert FirstPaymentFailed();
    }

    /// Ends a subscription: its subscriber or its merchant. The periods whose grace passed unpaid are recorded as
    /// missed first (which may already end it: then it stays ended so).
    function cancel(bytes32 id) external nonReentrant {
        Subscription storage s = _active(id);
        uint8 reason;
        if (msg.sender == s.subscriber) {
            reason = CANCELLED_BY_SUBSCRIBER;
        } else if (msg.sender == s.merchant) {
            reason = CANCELLED_BY_MERCHANT;
        } else {
            revert NotAllowed();
        }
        _countMisses(id, s);
        if (s.active) {
            _cancel(id, s, msg.sender, reason);
        }
    }

    // ---- anyone (keepers) ----------------------------------------------------------------------------------------

    /// Collects the oldest due period: first counts the periods whose grace passed as missed (and cancels after
    /// autoCancelAfterMissed in a row, or once the end is reached), then pulls one period if one is due. A pull the
    /// token refuses (allowance, balance, gas) changes nothing.
    /// @return charged whether a period was paid now
    function collect(bytes32 id) external nonReentrant returns (bool charged) {
        Subscription storage s = _active(id);
        _countMisses(id, s);
        if (!s.active) {
            return false;
        }
        if (revoked[s.merchant][s.planId]) {
            _cancel(id, s, s.merchant, CANCELLED_BY_MERCHANT);
            return false;
        }
        if (s.endsAt != 0 && s.nextDue >= s.endsAt) {
            _cancel(id, s, address(0), CANCELLED_ENDED);
            return false;
        }
        if (block.timestamp < s.nextDue) {
            return false;
        }
        return _charge(id, s);
    }

    // ---- views -----------------------------------------------------------------------------------------------------

    /// The plan's EIP-712 struct hash: its id here.
    function planId(Plan calldata plan) public pure returns (bytes32) {
        // Two encodings concatenated: one abi.encode of all thirteen members needs more stack than the EVM gives.
        return keccak256(
            bytes.concat(
                abi.encode(
                    PLAN_TYPEHASH,
                    plan.merchant,
                    plan.destination,
                    plan.token,
                    plan.amount,
                    keccak256(bytes(plan.currency)),
                    keccak256(bytes(plan.value))
                ),
                abi.encode(
                    plan.interval,
                    plan.trialPeriod,
                    plan.maxArrears,
                    plan.autoCancelAfterMissed,
                    plan.subscribeDeadline,
                    plan.planNonce
                )
            )
        );
    }

    /// What the merchant's wallet signs (eth_signTypedData_v4): the EIP-712 digest of the plan on this contract.
    function planDigest(Plan calldata plan) external view returns (bytes32) {
        return _hashTypedDataV4(planId(plan));
    }

    function getSubscription(bytes32 id) external view returns (Subscription memory) {
        Subscription memory s = subscriptions[id];
        if (s.subscriber == address(0)) revert UnknownSubscription();
        return s;
    }

    /// How long a period stays collectable: the plan's maxArrears, at least MIN_GRACE.
    function graceOf(uint64 maxArrears) public pure returns (uint64) {
        return maxArrears > MIN_GRACE ? maxArrears : MIN_GRACE;
    }

    /// Pulls exactly `amount` of `token` from `from` to `to`, or reverts (a refusal, a short delivery). Callable by
    /// this contract alone: `_charge` calls it so that a failed pull reverts only itself, not the misses counted
    /// before it.
    function pullExact(address token, address from, address to, uint256 amount) external {
        if (msg.sender != address(this)) revert NotAllowed();
        uint256 before = IERC20(token).balanceOf(to);
        (bool ok, bytes memory answer) = token.call(abi.encodeCall(IERC20.transferFrom, (from, to, amount)));
        bool paid = ok && (answer.length == 0 ? token.code.length > 0 : answer.length >= 32 && abi.decode(answer, (bool)));
        if (!paid) revert PullRefused();
        if (IERC20(token).balanceOf(to) - before != amount) revert FeeOnTransferToken();
    }

    // ---- internals -------------------------------------------------------------------------------------------------

    function _active(bytes32 id) private view returns (Subscription storage s) {
        s = subscriptions[id];
        if (s.subscriber == address(0)) revert UnknownSubscription();
        if (!s.active) revert NotActive();
    }

    /// Periods p = nextDue + k·interval with now > p + grace are missed: counted in O(1), never by a loop.
    function _countMisses(bytes32 id, Subscription storage s) private {
        uint256 graceEnd = uint256(s.nextDue) + s.grace;
        if (block.timestamp <= graceEnd) {
            return;
        }
        uint256 periods = (block.timestamp - graceEnd - 1) / s.interval + 1;
        if (s.endsAt != 0) {
            // No period starts at or after the end.
            uint256 before = s.endsAt > s.nextDue ? (uint256(s.endsAt) - s.nextDue + s.interval - 1) / s.interval : 0;
            if (periods > before) periods = before;
        }
        if (periods == 0) {
            return;
        }
        if (periods > type(uint32).max) periods = type(uint32).max;
        uint64 first = s.nextDue;
        s.nextDue = SafeCast.toUint64(uint256(s.nextDue) + periods * s.interval);
        uint256 inRow = uint256(s.missedInRow) + periods;
        s.missedInRow = inRow > type(uint32).max ? type(uint32).max : uint32(inRow);
        emit Missed(id, s.planId, s.subscriber, first, uint32(periods), s.missedInRow);
        if (s.autoCancelAfterMissed != 0 && s.missedInRow >= s.autoCancelAfterMissed) {
            _cancel(id, s, address(0), CANCELLED_AUTOMATICALLY);
        }
    }

    /// Pulls one period; false when the pull is refused — the token refuses it, or delivers less than the amount
    /// (a fee on transfer) — and the subscription's state stays as it was.
    function _charge(bytes32 id, Subscription storage s) private returns (bool) {
        try this.pullExact(s.token, s.subscriber, s.destination, s.amount) {}
        catch {
            return false;
        }
        uint64 periodStart = s.nextDue;
        s.nextDue = periodStart + s.interval;
        s.paidPeriods += 1;
        s.missedInRow = 0;
        emit Charged(id, s.planId, s.subscriber, periodStart, s.paidPeriods, s.amount);
        return true;
    }

    function _cancel(bytes32 id, Subscription storage s, address by, uint8 reason) private {
        s.active = false;
        emit Cancelled(id, s.planId, s.subscriber, by, reason);
    }

    /// The token and per-period amount: an amount plan's own, or a value plan's currency token and value in its units.
    function _billing(Plan calldata plan) private view returns (address token, uint256 amount) {
        bool byValue = plan.token == address(0);
        if (!byValue) {
            if (bytes(plan.currency).length != 0 || bytes(plan.value).length != 0) {
                revert InvalidPlan("an amount plan has no currency or value");
            }
            if (plan.amount == 0) revert InvalidPlan("amount is 0");
            return (plan.token, plan.amount);
        }
        if (plan.amount != 0) revert InvalidPlan("a value plan has no amount");
        token = currencyToken[keccak256(bytes(plan.currency))];
        if (token == address(0)) revert UnsupportedCurrency(plan.currency);
        amount = _units(plan.value, IERC20Metadata(token).decimals());
        if (amount == 0) revert InvalidPlan("value is 0");
    }

    /// "9.99" with 6 decimals -> 9990000. Digits with at most one point; no more fraction digits than decimals.
    function _units(string calldata value, uint8 decimals) private pure returns (uint256 units) {
        bytes calldata text = bytes(value);
        if (text.length == 0 || text.length > 78) revert InvalidPlan("value is not a decimal");
        bool point;
        uint256 fraction;
        for (uint256 i = 0; i < text.length; i++) {
            bytes1 c = text[i];
            if (c == ".") {
                if (point || i == 0 || i == text.length - 1) revert InvalidPlan("value is not a decimal");
                point = true;
                continue;
            }
            if (c < "0" || c > "9") revert InvalidPlan("value is not a decimal");
            if (point) {
                fraction++;
                if (fraction > decimals) revert InvalidPlan("value has more decimals than the token");
            }
            units = units * 10 + (uint8(c) - 48);
        }
        units *= 10 ** (decimals - fraction);
    }

    function _setCurrencyToken(string memory currency, address token) private {
        bytes32 key = keccak256(bytes(currency));
        if (currencyToken[key] != address(0)) revert CurrencyAlreadySet(currency);
        if (token == address(0)) revert InvalidPlan("no token");
        currencyToken[key] = token;
        emit CurrencyTokenSet(currency, token);
    }
}
