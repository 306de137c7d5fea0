# Included from _deal.pyx: the deal as fixed-size float32 tensors for learning programs.
#
# Three tensors, each a prefix of the next: a seat's observation, its perfect-recall information
# state, and the full state (all hands) for centralised critics. Seats are seat-relative (0: the
# seat itself, 1: its left, 2: its partner, 3: its right), teams are (own, other); suits and
# cards keep their numbers (cards.py). The sections are the *_LAYOUT tables below, which
# docs/TENSORS.md prints (tests/research/test_tensors.py keeps the two equal).
#
# What a seat may know (RULES.md 7): its observation and information state read its own hand
# and public facts only. While a partner chooses among several marriages (the ANSWER phase)
# every other seat's tensors are those of the deal before the ask-whole (7.2): they are encoded
# from a copy replayed from the hands as dealt without the last action. With answer_steps every
# "yes" is such a phase, masked alike.

from libc.string cimport memset
from operator import index as _index

#: (name, size, meaning) of each section of the observation tensor, in order.
OBSERVATION_LAYOUT = (
    ("hand", 36, "cards the seat holds, by card number"),
    ("unseen", 36, "cards neither held by the seat nor played: the other three hold them"),
    ("trick_cards", 4 * 36, "the current trick's card of each seat (seat-relative × card)"),
    ("trick_leader", 4, "who leads the current trick (zero once the deal is over)"),
    ("trick_winning", 4, "whose card wins the current trick so far (zero before its lead)"),
    ("played", 4 * 36, "cards each seat played in completed tricks (seat-relative × card)"),
    ("tricks_won", 4, "tricks each seat won, / 9"),
    ("hand_sizes", 4, "cards each seat holds, / 9"),
    ("to_move", 4, "the seat to move (zero once the deal is over)"),
    ("phase", 4, "play, declaration, answer, over"),
    ("dealer", 4, "the dealer"),
    ("forehand", 4, "the forehand, who led trick 1"),
    ("trump", 5, "trumps S, H, D, C, or none yet"),
    ("trump_maker", 4, "the seat that made trumps: it declared, or asked and was answered "
                       "yes (the marriage may be its partner's)"),
    ("declared", 4, "the suits declared as marriages, by either team"),
    ("declare", 4 * 4, "seat × suit: the seat declared that suit"),
    ("whole_yes", 4 * 4, "seat × suit: the seat asked whole, partner named that suit"),
    ("whole_no", 4, "the seat asked whole, partner answered no"),
    ("half_yes", 4 * 4, "seat × suit: the seat asked half in that suit, answered yes"),
    ("half_no", 4 * 4, "seat × suit: the seat asked half in that suit, answered no"),
    ("locked", 4, "the seats locked by questions (RULES.md 4.3)"),
    ("columns", 2 * 5, "team (own, other) × (tricks / 9, card points / 120, marriage points / 5, "
                       "game points so far / 7, took trick 9)"),
    ("score", 2, "the match score before this deal, team (own, other), / target"),
    ("target", 2, "the match target: 10, 12"),
    ("variant", 8, "first_forehand=club_ace_holder; whole_ask_after_trump not_trump_team, "
                   "anyone, nobody; must_overtrump; must_trump_if_cannot_overtrump; "
                   "first_trick_ace=on; both_on_target=continue"),
)

#: The information-state tensor: the observation, then these sections.
INFORMATION_STATE_LAYOUT = OBSERVATION_LAYOUT + (
    ("initial_hand", 36, "the seat's hand as dealt"),
    ("history", 9 * (4 + 4 * 36), "completed trick t = 1..9: its leader (4), then each "
                                  "seat's card (seat-relative × card)"),
    ("windows", 8 * 13, "declaration window after trick t = 1..8: used (1), by seat (4), how: "
                        "declare, ask-whole, ask-half (3), suit (4), yes (1)"),
)

#: The full-state tensor: the information state (never masked by RULES.md 7.2), then these.
STATE_LAYOUT = INFORMATION_STATE_LAYOUT + (
    ("hands", 4 * 36, "every seat's hand now (seat-relative × card)"),
    ("initial_hands", 4 * 36, "every seat's hand as dealt (seat-relative × card)"),
    ("seat", 4, "the seat the tensor is relative to: N, E, S, W"),
    ("answer_steps", 1, "every yes to ask-whole is answered as a step of its own, as in the "
                        "research environments (Deal answer_steps)"),
)


def _offsets(layout):
    out = {}
    at = 0
    for name, size, _ in layout:
        out[name] = at
        at += size
    return out, at


_OFF, OBSERVATION_SIZE = _offsets(OBSERVATION_LAYOUT)
_OFF, INFORMATION_STATE_SIZE = _offsets(INFORMATION_STATE_LAYOUT)
_OFF, STATE_SIZE = _offsets(STATE_LAYOUT)

cdef int O_HAND = _OFF["hand"], O_UNSEEN = _OFF["unseen"], O_TRICK = _OFF["trick_cards"]
cdef int O_LEADER = _OFF["trick_leader"], O_WINNING = _OFF["trick_winning"]
cdef int O_PLAYED = _OFF["played"], O_WON = _OFF["tricks_won"], O_SIZES = _OFF["hand_sizes"]
cdef int O_TO_MOVE = _OFF["to_move"], O_PHASE = _OFF["phase"], O_DEALER = _OFF["dealer"]
cdef int O_FOREHAND = _OFF["forehand"], O_TRUMP = _OFF["trump"], O_MAKER = _OFF["trump_maker"]
cdef int O_DECLARED = _OFF["declared"], O_DECLARE = _OFF["declare"]
cdef int O_WHOLE_YES = _OFF["whole_yes"], O_WHOLE_NO = _OFF["whole_no"]
cdef int O_HALF_YES = _OFF["half_yes"], O_HALF_NO = _OFF["half_no"], O_LOCKED = _OFF["locked"]
cdef int O_COLUMNS = _OFF["columns"], O_SCORE = _OFF["score"], O_TARGET = _OFF["target"]
cdef int O_VARIANT = _OFF["variant"], O_INITIAL = _OFF["initial_hand"]
cdef int O_HISTORY = _OFF["history"], O_WINDOWS = _OFF["windows"], O_HANDS = _OFF["hands"]
cdef int O_INITIAL_HANDS = _OFF["initial_hands"], O_SEAT = _OFF["seat"]
cdef int O_ANSWER_STEPS = _OFF["answer_steps"]
N_OBS = OBSERVATION_SIZE  # declared in _deal.pxd
cdef int N_INFO = INFORMATION_STATE_SIZE, N_STATE = STATE_SIZE
del _OFF

cdef object _np_zeros = None
# The variant last encoded and its switches, so that the hot path reads no attributes.
cdef object _last_variant = None
cdef int _last_bits = 0, _last_target = 10


cdef inline void put_cards(float* t, uint64_t m) noexcept nogil:
    while m:
        t[ctz64(m)] = 1.0
        m &= m - 1


cdef void replay_before_last(const Core* src, Core* dst) noexcept nogil:
    """dst: src's deal replayed from the hands as dealt without its last action, the answers
    to earlier ask-wholes taken from the public events."""
    cdef int i, k, a
    memcpy(dst, src, sizeof(Core))
    for i in range(4):
        dst.hand[i] = src.initial[i]
    dst.trump = -1
    dst.trump_team = -1
    dst.last_team = -1
    dst.trick_len = 0
    dst.win_card = 0
    dst.win_pos = 0
    dst.leader = src.forehand
    dst.to_move = src.forehand
    dst.phase = P_PLAY
    dst.ntricks = 0
    dst.declared = 0
    dst.locked = 0
    dst.asker = 0
    for i in range(2):
        dst.tricks_won[i] = 0
        dst.card_points[i] = 0
        dst.marriage_points[i] = 0
    dst.nactions = 0
    dst.nevents = 0
    for i in range(src.nactions - 1):
        a = src.actions[i]
        if a >= A_ANSWER:
            continue
        apply_action(dst, a)
        if dst.phase == P_ANSWER:
            # Which marriage partner named is public, whether it had a choice is not: in hands
            # that agree with a seat's view it may have had one, or several, where src had not.
            for k in range(src.nevents):
                if src.events[k].after_trick == dst.ntricks:
                    apply_action(dst, A_ANSWER + src.events[k].suit)


cdef void encode_observation(const Core* c, int seat, int target, int score_own,
                             int score_other, int variant_bits, float* t) noexcept nogil:
    """The observation section of seat's tensors from c (which the caller has masked)."""
    cdef int i, r, s, team = seat & 1, rel
    cdef uint64_t played = 0, m
    cdef const Ev* e
    memset(t, 0, N_OBS * sizeof(float))
    put_cards(t + O_HAND, c.hand[seat])
    for i in range(4 * c.ntricks):
        rel = (((c.leaders[i >> 2] + (i & 3)) & 3) - seat) & 3
        t[O_PLAYED + 36 * rel + c.plays[i]] = 1.0
        played |= (<uint64_t>1) << c.plays[i]
    for i in range(c.trick_len):
        rel = ((c.leader + i - seat) & 3)
        t[O_TRICK + 36 * rel + c.trick[i]] = 1.0
        played |= (<uint64_t>1) << c.trick[i]
    put_cards(t + O_UNSEEN, DECK & ~played & ~c.hand[seat])
    if c.phase != P_OVER:
        t[O_LEADER + ((c.leader - seat) & 3)] = 1.0
        t[O_TO_MOVE + ((c.to_move - seat) & 3)] = 1.0
        if c.trick_len:
            t[O_WINNING + ((c.leader + c.win_pos - seat) & 3)] = 1.0
    for i in range(c.ntricks):
        t[O_WON + ((c.winners[i] - seat) & 3)] += 1.0 / 9
    for r in range(4):
        t[O_SIZES + r] = popcount64(c.hand[(seat + r) & 3]) / 9.0
    t[O_PHASE + c.phase] = 1.0
    t[O_DEALER + ((c.dealer - seat) & 3)] = 1.0
    t[O_FOREHAND + ((c.forehand - seat) & 3)] = 1.0
    t[O_TRUMP + (c.trump if c.trump >= 0 else 4)] = 1.0
    for s in range(4):
        if c.declared >> s & 1:
            t[O_DECLARED + s] = 1.0
    for i in range(c.nevents):
        e = &c.events[i]
        rel = (e.seat - seat) & 3
        if e.yes and e.points == TRUMP_MARRIAGE_POINTS:
            t[O_MAKER + rel] = 1.0
        if e.how == H_DECLARE:
            t[O_DECLARE + 4 * rel + e.suit] = 1.0
        elif e.how == H_ASK_WHOLE:
            if e.yes:
                t[O_WHOLE_YES + 4 * rel + e.suit] = 1.0
            else:
                t[O_WHOLE_NO + rel] = 1.0
        else:
            t[(O_HALF_YES if e.yes else O_HALF_NO) + 4 * rel + e.suit] = 1.0
    for r in range(4):
        if c.locked >> ((seat + r) & 3) & 1:
            t[O_LOCKED + r] = 1.0
    for r in range(2):
        i = team ^ r
        t[O_COLUMNS + 5 * r] = c.tricks_won[i] / 9.0
        t[O_COLUMNS + 5 * r + 1] = c.card_points[i] / <double>DECK_POINTS
        t[O_COLUMNS + 5 * r + 2] = c.marriage_points[i] / 5.0
        t[O_COLUMNS + 5 * r + 3] = team_game_points(c, i) / 7.0
        t[O_COLUMNS + 5 * r + 4] = c.last_team == i
    t[O_SCORE] = score_own / <float>target
    t[O_SCORE + 1] = score_other / <float>target
    t[O_TARGET + (0 if target == 10 else 1)] = 1.0
    for i in range(8):
        if variant_bits >> i & 1:
            t[O_VARIANT + i] = 1.0


cdef void encode_history(const Core* c, int seat, float* t) noexcept nogil:
    """The information-state sections after the observation, from c (masked by the caller)."""
    cdef int i, k, rel
    cdef float* w
    cdef const Ev* e
    memset(t + N_OBS, 0, (N_INFO - N_OBS) * sizeof(float))
    put_cards(t + O_INITIAL, c.initial[seat])
    for i in range(c.ntricks):
        t[O_HISTORY + 148 * i + ((c.leaders[i] - seat) & 3)] = 1.0
        for k in range(4):
            rel = (c.leaders[i] + k - seat) & 3
            t[O_HISTORY + 148 * i + 4 + 36 * rel + c.plays[4 * i + k]] = 1.0
    for i in range(c.nevents):
        e = &c.events[i]
        w = t + O_WINDOWS + 13 * (e.after_trick - 1)
        w[0] = 1.0
        w[1 + ((e.seat - seat) & 3)] = 1.0
        w[5 + e.how] = 1.0
        if e.suit >= 0:
            w[8 + e.suit] = 1.0
        w[12] = e.yes


cdef int variant_bits_of(object variant) except -1:
    return ((variant.first_forehand == "club_ace_holder")
            | (1 << (1 + WHOLE_ASK.index(variant.whole_ask_after_trump)))
            | (variant.must_overtrump << 4)
            | (variant.must_trump_if_cannot_overtrump << 5)
            | ((variant.first_trick_ace == "on") << 6)
            | ((variant.both_on_target == "continue") << 7))


cdef object whole_number(object value):
    """``value`` as the int it is (an int, a Seat or a NumPy integer); ``TypeError`` for
    anything else, a bool included, which Python would count as 0 or 1."""
    if isinstance(value, bool):
        raise TypeError("a bool is not a number here")
    return _index(value)


cdef int seat_number(object seat) except -1:
    """A seat given to a tensor function (a Seat, or an int as numpy's) as its number;
    ``ValueError`` for anything else (a float is not truncated to a seat, a bool is no seat)."""
    cdef int s
    try:
        s = whole_number(seat)
    except (TypeError, OverflowError):
        s = -1
    if not 0 <= s < 4:
        raise ValueError(f"seat must be 0 to 3 (N E S W), not {seat!r}")
    return s


cdef object encode(Deal deal, object seat, object out, object score, int size, bint mask):
    cdef Core before
    cdef const Core* c = &deal.c
    global _last_variant, _last_bits, _last_target, _np_zeros
    cdef int s = seat_number(seat), own = 0, other = 0, r
    cdef float[::1] view
    cdef float* t
    if deal._variant is not _last_variant:
        _last_bits = variant_bits_of(deal._variant)
        _last_target = deal._variant.target
        _last_variant = deal._variant
    if score is not None:
        # unpacked, not indexed: indexing is unchecked here (boundscheck=False), and a short
        # tuple would be read past its end
        try:
            ns, ew = score
            ns, ew = whole_number(ns), whole_number(ew)
            if not (0 <= ns <= _last_target and 0 <= ew <= _last_target):
                raise ValueError
        except (TypeError, ValueError):
            raise ValueError(f"score must be two ints of 0 to {_last_target} (NS, EW), "
                             f"not {score!r}") from None
        own, other = (ew, ns) if s & 1 else (ns, ew)
    if out is None:
        if _np_zeros is None:
            import numpy
            _np_zeros = numpy.zeros
        out = _np_zeros(size, "float32")
    view = out
    if view.shape[0] != size:
        raise ValueError(f"the tensor needs {size} float32 values, the buffer has {view.shape[0]}")
    t = &view[0]
    if mask and c.phase == P_ANSWER and s != c.to_move:
        replay_before_last(c, &before)
        c = &before
    encode_observation(c, s, _last_target, own, other, _last_bits, t)
    if size > N_OBS:
        encode_history(c, s, t)
    if size > N_INFO:
        memset(t + N_INFO, 0, (N_STATE - N_INFO) * sizeof(float))
        for r in range(4):
            put_cards(t + O_HANDS + 36 * r, c.hand[(s + r) & 3])
            put_cards(t + O_INITIAL_HANDS + 36 * r, c.initial[(s + r) & 3])
        t[O_SEAT + s] = 1.0
        t[O_ANSWER_STEPS] = c.answer_steps
    return out


# ``not None`` on each typed deal: Cython lets None through, and its fields would be read from
# the memory past Python's None.
def observation_tensor(Deal deal not None, seat, out=None, score=None):
    """``seat``'s observation tensor (``OBSERVATION_LAYOUT``, ``OBSERVATION_SIZE`` float32).

    Written into ``out`` (a writable float32 buffer of that size, e.g. a numpy array or one
    row of a batch) and returned; with ``out=None`` into a new numpy array. ``score`` is the
    match score before the deal by team (NS, EW), two ints of 0 to the target; ``None`` reads
    as 0:0. ``ValueError`` for a seat or a score that is not one. Depends only on what
    ``seat`` may know (RULES.md 7).
    """
    return encode(deal, seat, out, score, N_OBS, True)


def information_state_tensor(Deal deal not None, seat, out=None, score=None):
    """``seat``'s perfect-recall information-state tensor (``INFORMATION_STATE_LAYOUT``): the
    observation, the hand as dealt, every completed trick and every declaration window."""
    return encode(deal, seat, out, score, N_INFO, True)


def state_tensor(Deal deal not None, seat, out=None, score=None):
    """The full state relative to ``seat`` (``STATE_LAYOUT``): the information state of the
    deal as it is (an ANSWER phase not masked), every hand now and as dealt, and the seat.
    For centralised critics; ``deal_from_state_tensor`` rebuilds the deal from it."""
    return encode(deal, seat, out, score, N_STATE, False)


def action_mask(Deal deal not None, seat, out=None):
    """``seat``'s legal actions as ``NUM_ACTIONS`` int8 values, 1 where legal: ``legal_mask()``
    for the seat to move, all 0 for the others. Written into ``out`` (a writable int8 buffer)
    and returned; with ``out=None`` into a new numpy array."""
    global _np_zeros
    cdef signed char[::1] view
    cdef uint64_t m = 0
    cdef int s = seat_number(seat), i
    if out is None:
        if _np_zeros is None:
            import numpy
            _np_zeros = numpy.zeros
        out = _np_zeros(NACTIONS, "int8")
    view = out
    if view.shape[0] != NACTIONS:
        raise ValueError(f"an action mask has {NACTIONS} values, the buffer has {view.shape[0]}")
    if deal.c.phase != P_OVER and deal.c.to_move == s:
        m = legal_mask_of(&deal.c)
    for i in range(NACTIONS):
        view[i] = m >> i & 1
    return out


cdef int one_of(const float[::1] t, int at, int n) except -2:
    """The index of the one set value among t[at:at + n], or -1 if none."""
    cdef int i
    for i in range(n):
        if t[at + i] != 0:
            return i
    return -1


def deal_from_state_tensor(tensor):
    """The deal that ``state_tensor`` encoded: hands as dealt, dealer, forehand, variant,
    ``answer_steps`` and every action, answers included. ``ValueError`` if the tensor does not encode a deal."""
    cdef const float[::1] t = tensor
    cdef int s, r, i, k, ntricks, leader, rel, slot, how, suit, at, card
    cdef uint64_t m
    cdef Deal deal
    if t.shape[0] != N_STATE:
        raise ValueError(f"a state tensor has {N_STATE} values, not {t.shape[0]}")
    s = one_of(t, O_SEAT, 4)
    if s < 0:
        raise ValueError("the tensor names no seat")
    hands = [0, 0, 0, 0]
    for r in range(4):
        m = 0
        for i in range(36):
            if t[O_INITIAL_HANDS + 36 * r + i] != 0:
                m |= (<uint64_t>1) << i
        hands[(s + r) & 3] = m
    for at, n, what in ((O_DEALER, 4, "dealer"), (O_FOREHAND, 4, "forehand"),
                        (O_TARGET, 2, "target"), (O_VARIANT + 1, 3, "whole_ask_after_trump")):
        if one_of(t, at, n) < 0:
            raise ValueError(f"the tensor names no {what}")
    whole = ("not_trump_team", "anyone", "nobody")
    variant = Variant(
        target=10 if t[O_TARGET] else 12,
        first_forehand="club_ace_holder" if t[O_VARIANT] else "left_of_dealer",
        whole_ask_after_trump=whole[one_of(t, O_VARIANT + 1, 3)],
        must_overtrump=bool(t[O_VARIANT + 4]),
        must_trump_if_cannot_overtrump=bool(t[O_VARIANT + 5]),
        first_trick_ace="on" if t[O_VARIANT + 6] else "off",
        both_on_target="continue" if t[O_VARIANT + 7] else "draw",
    )
    deal = Deal(hands, (s + one_of(t, O_DEALER, 4)) & 3, variant,
                (s + one_of(t, O_FOREHAND, 4)) & 3, answer_steps=bool(t[O_ANSWER_STEPS]))
    ntricks = 0
    while ntricks < 9 and one_of(t, O_HISTORY + 148 * ntricks, 4) >= 0:
        ntricks += 1
    for i in range(ntricks + 1):
        if i < ntricks:
            leader = one_of(t, O_HISTORY + 148 * i, 4)
            at = O_HISTORY + 148 * i + 4
        else:
            if one_of(t, O_PHASE + P_OVER, 1) == 0:
                break
            leader = one_of(t, O_LEADER, 4)
            at = O_TRICK
        for k in range(4):
            rel = (leader + k) & 3
            card = one_of(t, at + 36 * rel, 36)
            if card < 0:
                break
            deal.apply(card)
        if i < ntricks and i < 8 and t[O_WINDOWS + 13 * i]:
            slot = O_WINDOWS + 13 * i
            how = one_of(t, slot + 5, 3)
            suit = one_of(t, slot + 8, 4)
            if how == H_DECLARE:
                deal.apply(A_DECLARE + suit)
            elif how == H_ASK_WHOLE:
                deal.apply(A_ASK_WHOLE)
                if deal.c.phase == P_ANSWER:
                    deal.apply(A_ANSWER + suit)
            else:
                deal.apply(A_ASK_HALF + suit)
    if t[O_PHASE + P_ANSWER] and deal.c.phase != P_ANSWER:
        deal.apply(A_ASK_WHOLE)
    return deal
