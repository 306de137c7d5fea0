# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""One deal of Marjapussi as a state machine: the rules of RULES.md sections 2.4, 3, 4 and 5.

The rules of play live in ``_deal.pxd`` (the ``Core`` struct and the inline functions over it,
deal scoring, 5.1, included), which this module and the compiled players and tables above it
cimport: the solver, the tensors and the proofs (the included .pxi files) score a deal with its
``game_points``. Here is the ``Deal`` around a ``Core``: the whole state is one C struct, so a
copy is a ``memcpy`` and ``legal_actions()``/``apply()`` make no objects beyond their result.
Cards and actions use the numbering of ``cards.py`` and ``actions.py``; the numbers of scoring
(card points, marriage worths) are ``cards.py``'s.
"""

from libc.stdint cimport int8_t, uint8_t, uint64_t
from libc.string cimport memcpy

from valtti.engine.actions import ACTIONS
from valtti.engine.cards import CARDS, SEATS, SUITS, TEAMS, CardSet
from valtti.engine.cards import DECK_POINTS as _DECK_POINTS
from valtti.engine.cards import HALF_DECK_POINTS as _HALF_DECK_POINTS
from valtti.engine.cards import LITTLE_TRUMP_POINTS as _LITTLE_TRUMP_POINTS
from valtti.engine.cards import RANK_POINTS as _RANK_POINTS
from valtti.engine.cards import TRUMP_MARRIAGE_POINTS as _TRUMP_MARRIAGE_POINTS
from valtti.engine.refusal import Refusal, RefusalCode
from valtti.engine.variant import Variant
from valtti.engine.views import (
    DealResult,
    Event,
    IllegalActionError,
    Marriage,
    Phase,
    Trick,
)

# The numbers of scoring (declared in _deal.pxd), from cards.py.
DECK_POINTS = _DECK_POINTS
HALF_DECK_POINTS = _HALF_DECK_POINTS
TRUMP_MARRIAGE_POINTS = _TRUMP_MARRIAGE_POINTS
LITTLE_TRUMP_POINTS = _LITTLE_TRUMP_POINTS

cdef int _rank_points_init() except -1:
    cdef int rank
    for rank in range(9):
        RANK_POINTS[rank] = _RANK_POINTS[rank]
    return 0
_rank_points_init()

PHASES = tuple(Phase)
HOW = ("declare", "ask-whole", "ask-half")
WHOLE_ASK = ("not_trump_team", "anyone", "nobody")
DEFAULT_VARIANT = Variant()
#: The RefusalCode of each check code, in the order of the enum in _deal.pxd (OK has none).
CHECK_CODES = (None, *[RefusalCode(v) for v in (
    "over", "answer_pending", "not_held", "first_ace", "follow", "follow_beat", "trump",
    "trump_beat", "before_first_trick", "window_used", "not_window", "declared", "no_marriage",
    "locked", "whole_trump_team", "whole_nobody", "half_not_one", "no_question", "not_eligible",
)])


cdef void shuffle_hands(uint64_t seed, uint64_t* hands) noexcept nogil:
    """Deal the deck into four hands of nine by a Fisher-Yates shuffle of the generator
    seeded with seed."""
    cdef uint8_t deck[NCARDS]
    cdef uint64_t state = seed
    cdef int i, j, t
    for i in range(NCARDS):
        deck[i] = i
    for i in range(NCARDS - 1, 0, -1):
        j = rng_below(&state, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    for i in range(4):
        hands[i] = 0
    for i in range(NCARDS):
        hands[i // 9] |= (<uint64_t>1) << deck[i]


cdef void random_playout(Core* c, uint64_t* state) noexcept nogil:
    """Play uniformly random legal actions to the end of the deal."""
    cdef uint64_t m
    cdef int k
    while c.phase != P_OVER:
        m = legal_mask_of(c)
        k = rng_below(state, popcount64(m))
        while k:
            m &= m - 1
            k -= 1
        apply_action(c, ctz64(m))


cdef class SplitMix:
    """The package's generator (SplitMix64) from Python: the draws of the C code's
    ``rng_next`` and ``rng_below`` from the same seed, so that a Python table and a C one deal
    and play alike. Its ``getrandbits`` and ``randrange`` are as ``random.Random``'s for the
    engine and the research tables (``Deal.shuffled`` takes either)."""

    cdef uint64_t state

    def __init__(self, seed=None):
        """``seed``: an int (taken modulo 2**64), or ``None`` for one from the system."""
        if seed is None:
            from secrets import randbits
            seed = randbits(64)
        self.state = whole_number(seed) & 0xFFFFFFFFFFFFFFFF

    def getrandbits(self, int k):
        """The top ``k`` (1 to 64) bits of the next 64."""
        if not 1 <= k <= 64:
            raise ValueError(f"k is 1 to 64, not {k}")
        return rng_next(&self.state) >> (64 - k)

    def randrange(self, n):
        """A number from 0 to ``n - 1`` (1 <= ``n`` < 2**64), as ``rng_below`` draws it."""
        if not 1 <= n <= 0xFFFFFFFFFFFFFFFF:
            raise ValueError(f"randrange needs 1 to 2**64 - 1 choices, not {n}")
        return rng_below(&self.state, n)

    def __repr__(self):
        return f"SplitMix(state={self.state:#018x})"


def takes_victory(card_points):
    """Whether a team that took ``card_points`` card points has the victory point
    (RULES.md 5.1): more than half the deck's."""
    return bool(victory_point(card_points))


def marriage_worth(trump):
    """The game points a marriage made now scores, with trumps ``trump`` (a ``Suit``, or
    ``None`` while there are none): 2 when it makes trumps, 1 for a little trump (RULES.md 4.4)."""
    return marriage_worth_of(suit_number(trump))


def deal_hands(rng):
    """Four hands of nine cards, N E S W, shuffled from 64 bits of ``rng`` (a ``random.Random``)."""
    cdef uint64_t hands[4]
    shuffle_hands(rng.getrandbits(64), hands)
    return tuple([CardSet(hands[i]) for i in range(4)])


def card_mask(cards):
    """The card mask of an iterable of card numbers (ints 0-35); ``ValueError`` for another."""
    cdef uint64_t m = 0
    cdef long card
    for card in cards:
        if card < 0 or card >= NCARDS:
            raise ValueError(f"no card number {card}")
        m |= (<uint64_t>1) << card
    return m


def nth_card(uint64_t mask, int n):
    """The ``n``-th card (from 0, in card-number order) of the card mask ``mask``; -1 if it
    holds ``n`` cards or fewer."""
    if n < 0:
        return -1
    while n and mask:
        mask &= mask - 1
        n -= 1
    return ctz64(mask) if mask else -1


cdef object seat_of(object seat):
    """The ``Seat`` of a seat or its number 0-3; ``ValueError`` for anything else (a plain
    index would take -1 for W)."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < 4:
        return SEATS[seat]
    raise ValueError(f"not a seat: {seat!r} (a Seat, or its number 0 to 3)")


cdef inline int suit_of(object suit) except -1:
    """A suit's number 0-3, from a ``Suit`` or that number; ``ValueError`` for anything else
    (a plain index would take -1 for clubs)."""
    if isinstance(suit, int) and not isinstance(suit, bool) and 0 <= suit < 4:
        return suit
    raise ValueError(f"not a suit: {suit!r} (a Suit, or its number 0 to 3)")


cdef inline int suit_number(object suit) except -2:
    """A suit (or ``None``: no trumps) as -1 to 3."""
    return -1 if suit is None else suit_of(suit)


cdef inline int card_number(object card) except -1:
    if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < NCARDS:
        raise ValueError(f"not a card number: {card!r}")
    return card


def beats_card(card, winning, trump):
    """Whether ``card`` takes over a trick that ``winning`` wins so far, with trumps ``trump``
    (a ``Suit`` or ``None``): a higher card of its suit, or a trump over a non-trump (RULES.md 3.1)."""
    return beats(card_number(card), card_number(winning), suit_number(trump))


def trick_winner(cards, trump):
    """The position (from 0, the lead) of the card winning ``cards``, a trick's cards so far in
    play order, with trumps ``trump`` (RULES.md 3.1). ``ValueError`` for no cards."""
    cdef int i, win = -1, pos = 0, t = suit_number(trump), card
    if not cards:
        raise ValueError("a trick without cards has no winner")
    for i in range(len(cards)):
        card = card_number(cards[i])
        if i == 0 or beats(card, win, t):
            win = card
            pos = i
    return pos


def play_shows(card, before, trump, trick_number, variant):
    """What playing ``card`` proves about the hand it came from (RULES.md 7.3): the cards that,
    held then, would have made the play illegal, as a ``CardSet``.

    ``before``: the trick's cards played before it, in order (empty for the lead);
    ``trump``: the trumps during the trick (a ``Suit`` or ``None``); ``trick_number`` from 1.
    Read from the same tiers as legality, so every variant switch of play counts.
    """
    cdef Tiers t
    cdef int i, c = card_number(card), led = -1, win = 0, tr = suit_number(trump), b
    if not isinstance(variant, Variant):
        raise TypeError(f"variant must be a Variant, not {type(variant).__name__}")
    for i in range(len(before)):
        b = card_number(before[i])
        if i == 0:
            led = win = b
        elif beats(b, win, tr):
            win = b
    play_tiers(led, win, tr, trick_number == 1, variant.first_trick_ace == "on",
               variant.must_overtrump, variant.must_trump_if_cannot_overtrump, &t)
    return CardSet(shown_absent(&t, c))


def marriage_suits(hand, seat, declared, locked):
    """The suits of ``hand``'s K+Q pairs that ``seat`` could declare or name in answer to
    ask-whole, with the suits ``declared`` and the seats ``locked`` (RULES.md 4.2, 4.3)."""
    cdef int d = 0, l = 0, suits
    for suit in declared:
        d |= 1 << suit_of(suit)
    for other in locked:
        l |= 1 << seat_of(other)
    suits = eligible_suits(to_mask(hand), seat_of(seat), d, l)
    return [SUITS[i] for i in range(4) if suits >> i & 1]


def window_actions(observation):
    """The declarations and questions ``observation.seat`` could make at a declaration window
    opened now, holding its hand now (RULES.md 4.2): what it may do should it win the trick
    (or may do now, in its window), in action-number order."""
    cdef int x = SEATS[observation.seat], a, declared = 0, locked = 0
    cdef int trump = suit_number(observation.trump), whole_ask
    cdef int trump_team = -1 if observation.trump_team is None else TEAMS[observation.trump_team]
    cdef uint64_t hand = observation.hand.mask
    for e in observation.events:
        if e.yes:
            declared |= 1 << SUITS[e.suit]
    for seat in observation.locked:
        locked |= 1 << seat_of(seat)
    whole_ask = WHOLE_ASK.index(observation.variant.whole_ask_after_trump)
    return [ACTIONS[a] for a in range(A_DECLARE, A_ANSWER)
            if window_check(hand, x, declared, locked, trump, trump_team, whole_ask, a) == OK]


cdef inline int action_number(object action):
    """The action's number, or -1 when action is not an int from 0 to NACTIONS - 1."""
    cdef long n
    if not isinstance(action, int) or isinstance(action, bool):
        return -1
    try:
        n = action
    except OverflowError:
        return -1
    return n if 0 <= n < NACTIONS else -1


cdef uint64_t to_mask(object cards) except? 0:
    if isinstance(cards, CardSet):
        return cards.mask
    if isinstance(cards, int) and 0 <= cards <= DECK:
        return cards
    return CardSet(cards).mask


cdef object make_refusal(int code, int a, int seat, int led, int win, int trump, int asker):
    """The ``Refusal`` of check code ``code`` for action number ``a`` by ``seat``, where ``led``
    is the suit led (-1: none), ``win`` the winning card, ``trump`` the trumps (-1: none) and
    ``asker`` whose question waits; ``None`` for OK."""
    if code == OK:
        return None
    action = ACTIONS[a]
    if code == E_OVER:
        return Refusal(RefusalCode.OVER, action=action)
    x = SEATS[seat]
    if code == E_ANSWER_PENDING:
        return Refusal(RefusalCode.ANSWER_PENDING, x, action, asker=SEATS[asker])
    if code == E_NOT_HELD:
        return Refusal(RefusalCode.NOT_HELD, x, action)
    if code <= E_TRUMP_BEAT:
        return Refusal(
            CHECK_CODES[code], x, action,
            suit=SUITS[led] if led >= 0 else None,
            card=CARDS[win] if code == E_FOLLOW_BEAT or code == E_TRUMP_BEAT else None,
            trump=SUITS[trump] if trump >= 0 else None,
        )
    if code == E_WHOLE_TRUMP_TEAM:
        return Refusal(RefusalCode.WHOLE_TRUMP_TEAM, x, action, team=x.team)
    if code == E_DECLARED or code == E_NO_MARRIAGE or code == E_HALF_NOT_ONE or code == E_NOT_ELIGIBLE:
        return Refusal(CHECK_CODES[code], x, action, suit=action.suit)
    return Refusal(CHECK_CODES[code], x, action)


cdef class CardRefusals:
    """Why each card of the hand of the seat to move may not be played (``Deal.refusals``):
    an immutable sequence of ``Refusal``, in the order of ``CardSet`` (by suit, high to low),
    each built only when asked for."""

    cdef uint64_t mask
    cdef uint8_t code, seat, asker, win
    cdef int8_t led, trump

    def __cinit__(self):
        self.mask = 0

    @property
    def cards(self):
        """The cards refused, as a ``CardSet``."""
        return CardSet(self.mask)

    def __len__(self):
        return popcount64(self.mask)

    def __iter__(self):
        cdef int suit, rank, n
        for suit in range(4):
            for rank in range(8, -1, -1):
                n = 9 * suit + rank
                if self.mask >> n & 1:
                    yield make_refusal(self.code, n, self.seat, self.led, self.win, self.trump,
                                       self.asker)

    def __getitem__(self, index):
        return tuple(self)[index]

    def __bool__(self):
        return self.mask != 0

    def __contains__(self, item):
        return item in tuple(self)

    def of(self, card):
        """The ``Refusal`` of playing ``card`` (a held card that is refused), or ``None``."""
        cdef int n = card
        if not (self.mask >> n & 1):
            return None
        return make_refusal(self.code, n, self.seat, self.led, self.win, self.trump, self.asker)

    def _key(self):
        if not self.mask:
            return (0,)
        return (self.mask, self.code, self.seat, self.led, self.win, self.trump, self.asker)

    def __eq__(self, other):
        if isinstance(other, CardRefusals):
            return self._key() == (<CardRefusals>other)._key()
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self):
        return hash(tuple(self))

    def __repr__(self):
        return f"CardRefusals({list(self)!r})"

    def __reduce__(self):
        return (_card_refusals, self._key())


def _card_refusals(mask, code=0, seat=0, led=-1, win=0, trump=-1, asker=0):
    cdef CardRefusals out = CardRefusals.__new__(CardRefusals)
    out.mask = mask
    out.code = code
    out.seat = seat
    out.led = led
    out.win = win
    out.trump = trump
    out.asker = asker
    return out


cdef class Deal:
    """One deal from the deal to the ninth trick.

    ``legal_actions()`` lists what the player to move may do; ``apply()`` does it or raises
    ``IllegalActionError`` with the reason, leaving the deal unchanged.

    ``answer_steps`` (off by default): every "yes" to ``ask-whole`` is answered by the partner
    as a step of its own (the ANSWER phase), one ``answer`` forced where it holds a single
    eligible marriage; a "no" stays immediate. Off, only a choice among several marriages is a
    step, so the turn passing to the partner tells that it had several: hidden from the other
    seats by ``seen_by``, which a turn-based environment cannot do (RULES.md 7.2), hence on in
    ``valtti.research``. Copies, positions and rebuilt deals keep it.
    """

    def __init__(self, hands, dealer, variant=None, forehand=None, *, answer_steps=False):
        """Deal with the given hands (N E S W: ``CardSet``s, masks or card lists).

        ``forehand`` leads trick 1; by default the player left of the dealer (RULES.md 2.2).
        ``answer_steps``: see the class. ``ValueError`` if the hands are not four disjoint
        hands of nine or a seat is unknown.
        """
        cdef uint64_t masks[4]
        cdef uint64_t seen = 0
        cdef int i
        if len(hands) != 4:
            raise ValueError(f"a deal needs four hands (N E S W), got {len(hands)}")
        for i in range(4):
            masks[i] = to_mask(hands[i])
            if popcount64(masks[i]) != 9:
                raise ValueError(f"{SEATS[i]}'s hand has {popcount64(masks[i])} cards, not 9")
            if masks[i] & seen:
                raise ValueError(f"{SEATS[i]}'s hand repeats {CardSet(masks[i] & seen)}")
            seen |= masks[i]
        dealer = seat_of(dealer)
        self._setup(masks, dealer, seat_of(forehand) if forehand is not None else dealer.left,
                    DEFAULT_VARIANT if variant is None else variant, answer_steps)

    @staticmethod
    def shuffled(rng, dealer, variant=None, forehand=None, *, answer_steps=False):
        """A deal with hands shuffled from ``rng`` (see ``deal_hands``)."""
        cdef Deal d = Deal.__new__(Deal)
        cdef uint64_t hands[4]
        shuffle_hands(rng.getrandbits(64), hands)
        dealer = seat_of(dealer)
        d._setup(hands, dealer, seat_of(forehand) if forehand is not None else dealer.left,
                 DEFAULT_VARIANT if variant is None else variant, answer_steps)
        return d

    cdef void _setup(self, uint64_t* hands, int dealer, int forehand, object variant,
                     object answer_steps) except *:
        cdef Core* c = &self.c
        cdef int i
        if not isinstance(variant, Variant):
            raise TypeError(f"variant must be a Variant, not {type(variant).__name__}")
        if not isinstance(answer_steps, bool):
            raise TypeError(f"answer_steps must be a bool, not {type(answer_steps).__name__}")
        self._variant = variant
        c.answer_steps = answer_steps
        for i in range(4):
            c.hand[i] = hands[i]
            c.initial[i] = hands[i]
        c.trump = -1
        c.trump_team = -1
        c.last_team = -1
        c.trick_len = 0
        c.win_card = 0
        c.win_pos = 0
        c.leader = forehand
        c.to_move = forehand
        c.phase = P_PLAY
        c.ntricks = 0
        c.declared = 0
        c.locked = 0
        c.dealer = dealer
        c.forehand = forehand
        c.asker = 0
        for i in range(2):
            c.tricks_won[i] = 0
            c.card_points[i] = 0
            c.marriage_points[i] = 0
        c.whole_ask = WHOLE_ASK.index(variant.whole_ask_after_trump)
        c.must_overtrump = variant.must_overtrump
        c.must_trump = variant.must_trump_if_cannot_overtrump
        c.first_trick_ace = variant.first_trick_ace == "on"
        c.nactions = 0
        c.nevents = 0

    # -- the hot path -------------------------------------------------------------------------

    def legal_actions(self):
        """The legal actions, in action-number order; empty once the deal is over."""
        cdef uint64_t m = legal_mask_of(&self.c)
        cdef list out = []
        while m:
            out.append(ACTIONS[ctz64(m)])
            m &= m - 1
        return out

    def legal_mask(self):
        """The legal actions as a bit mask over action numbers."""
        return legal_mask_of(&self.c)

    def legal_numbers(self):
        """The legal action numbers (plain ints), ascending; empty once the deal is over."""
        cdef uint64_t m = legal_mask_of(&self.c)
        cdef list out = []
        while m:
            out.append(ctz64(m))
            m &= m - 1
        return out

    def seat_to_move(self):
        """The number (0-3) of the seat to move, or -1 once the deal is over."""
        return -1 if self.c.phase == P_OVER else self.c.to_move

    def apply(self, action):
        """Play ``action`` (an ``Action`` or its number); ``IllegalActionError`` if not legal."""
        cdef int a = action_number(action)
        if a >= 0 and action_check(&self.c, a) == OK:
            apply_action(&self.c, a)
        else:
            self._refuse(action)

    def is_legal(self, action):
        cdef int a = action_number(action)
        return a >= 0 and action_check(&self.c, a) == OK

    def is_over(self):
        return self.c.phase == P_OVER

    def copy(self):
        """An independent copy (a ``memcpy`` of the state)."""
        cdef Deal d = Deal.__new__(Deal)
        memcpy(&d.c, &self.c, sizeof(Core))
        d._variant = self._variant
        return d

    def with_hands(self, hands):
        """A copy at the same point of play in which the seats hold other cards now.

        Each seat keeps its number of cards and, together, the seats hold the same cards;
        ``initial_hands`` become these hands plus the cards each seat has played. Nothing checks
        that the hands agree with earlier declarations and answers: that is the caller's task.
        ``ValueError`` otherwise.
        """
        cdef uint64_t masks[4]
        cdef uint64_t held = 0, before = 0
        cdef int i
        cdef Deal d
        if len(hands) != 4:
            raise ValueError(f"four hands are needed (N E S W), got {len(hands)}")
        for i in range(4):
            masks[i] = to_mask(hands[i])
            if popcount64(masks[i]) != popcount64(self.c.hand[i]):
                raise ValueError(f"{SEATS[i]} must hold {popcount64(self.c.hand[i])} cards")
            if held & masks[i]:
                raise ValueError(f"{SEATS[i]}'s hand repeats {CardSet(held & masks[i])}")
            held |= masks[i]
            before |= self.c.hand[i]
        if held != before:
            raise ValueError("the hands must hold exactly the cards not yet played")
        d = self.copy()
        for i in range(4):
            d.c.initial[i] = masks[i] | (self.c.initial[i] & ~self.c.hand[i])
            d.c.hand[i] = masks[i]
        return d

    def playout(self, rng):
        """Play uniformly random legal actions to the end, drawn from 64 bits of ``rng``."""
        cdef uint64_t state = rng.getrandbits(64)
        random_playout(&self.c, &state)

    # -- positions ----------------------------------------------------------------------------

    def after(self, n):
        """A new deal: this one as dealt, after its first ``n`` actions (0 to ``len(history)``).

        The actions were legal when played, so they are replayed in C without checks.
        """
        cdef Deal d = Deal.__new__(Deal)
        cdef int i
        if not 0 <= n <= self.c.nactions:
            raise ValueError(f"a deal of {self.c.nactions} actions has no position after {n}")
        d._setup(self.c.initial, self.c.dealer, self.c.forehand, self._variant,
                 bool(self.c.answer_steps))
        for i in range(n):
            apply_action(&d.c, self.c.actions[i])
        return d

    @staticmethod
    def of_observation(observation, hands):
        """The deal at ``observation``'s point if the seats hold ``hands`` now (N E S W): the
        public history replayed on those hands with the cards each seat has played, each
        choice of marriage as the events name it, ``answer_steps`` as the observed deal's.

        ``IllegalActionError`` (a ``ValueError``) if the hands contradict what was seen.
        """
        played = observation.played_by()
        hands = list(hands)  # its length checked: indexing is unchecked here (boundscheck)
        if len(hands) != 4:
            raise ValueError(f"four hands are needed (N E S W), got {len(hands)}")
        deal = Deal([hands[i] | played[i] for i in range(4)], observation.dealer,
                    observation.variant, observation.forehand,
                    answer_steps=observation.answer_steps)
        named = [e.suit for e in observation.events if e.how == "ask-whole" and e.yes]
        deal.replay(observation.history, [s for s in named if s is not None])
        return deal

    def seen_by(self, viewer):
        """The position ``viewer`` (a seat, or ``None``: a spectator) may see (RULES.md 7.2).

        The deal itself, except while a partner chooses which of several marriages to name (the
        ANSWER phase): every other seat and a spectator see the deal before the ``ask-whole``
        (a new deal), as a partner with one marriage or none answers at once. With
        ``answer_steps`` every "yes" has an ANSWER phase, hidden alike: the seat to move is
        then the one thing that shows the "yes" before the answer does. ``ValueError`` for a
        viewer that is neither.
        """
        seat = None if viewer is None else seat_of(viewer)  # a bad viewer in every phase
        if self.c.phase == P_ANSWER and (seat is None or seat != self.c.to_move):
            return self.after(self.c.nactions - 1)
        return self

    def replay(self, actions, answers=()):
        """Apply ``actions`` in order, each checked as ``apply()`` does. ``answers``: the suits
        named by the ask-whole questions answered "yes", in order (as the events show them);
        where a partner names a marriage as a step (a choice among several, or with
        ``answer_steps`` any "yes") and no ``answer`` follows, the partner names the suit given
        for that question (what others see of a history, which leaves answers out: RULES.md
        7.2).

        ``IllegalActionError`` (the deal then stands before the refused action), or
        ``ValueError`` when a choice has no suit in ``answers``.
        """
        cdef int a
        named = [int(s) for s in answers]
        for action in actions:
            a = action_number(action)
            if self.c.phase == P_ANSWER and a < A_ANSWER:
                self._answer_from(named)
            if a >= 0 and action_check(&self.c, a) == OK:
                apply_action(&self.c, a)
            else:
                self._refuse(action)
        if self.c.phase == P_ANSWER and whole_yeses(&self.c) < len(named):
            self._answer_from(named)

    cdef _answer_from(self, list named):
        cdef int k = whole_yeses(&self.c)
        if k >= len(named):
            raise ValueError("a partner chooses a marriage, but no answer is given for it")
        self.apply(A_ANSWER + named[k])

    # -- illegal actions ----------------------------------------------------------------------

    def why_illegal(self, action):
        """``None`` if ``action`` (an ``Action`` or number) is legal now, else the reason in words."""
        refusal = self.refusal(action)
        return None if refusal is None else str(refusal)

    def refusal(self, action):
        """``None`` if ``action`` (an ``Action`` or number) is legal now, else a ``Refusal``."""
        cdef int a = action_number(action)
        if a < 0:
            return Refusal(RefusalCode.NOT_AN_ACTION, self.current_player, given=action)
        return self._refusal(action_check(&self.c, a), a)

    def refusals(self, seat):
        """Why each card ``seat`` holds may not be played now: for the seat to move, a
        ``Refusal`` per held card that is not legal, in the hand's order; for another, none.
        A ``CardRefusals``, which builds each ``Refusal`` only when it is asked for."""
        cdef Core* c = &self.c
        cdef int s = seat_of(seat), rule
        cdef CardRefusals out = CardRefusals.__new__(CardRefusals)
        if c.phase == P_OVER or s != c.to_move:
            return out
        if c.phase == P_ANSWER:
            rule = E_ANSWER_PENDING
            out.mask = c.hand[s]
        else:
            out.mask = c.hand[s] & ~play_mask(c, &rule)
        if not out.mask:
            return out
        # Only what the refusals name, so that equal refusals compare (and pickle) equal: a
        # stale asker would tell that an earlier partner had a choice (RULES.md 7.2).
        out.code = rule
        out.seat = s
        out.led = c.trick[0] // 9 if c.trick_len else -1
        out.win = c.win_card if c.trick_len else 0
        out.trump = c.trump
        out.asker = c.asker if c.phase == P_ANSWER else 0
        return out

    cdef _refuse(self, object action):
        cdef int a = action_number(action)
        raise IllegalActionError(
            ACTIONS[a] if a >= 0 else action,
            self.refusal(action),
            self.legal_actions(),
        )

    cdef _refusal(self, int code, int a):
        """The ``Refusal`` of check code ``code`` for action number ``a``; ``None`` for OK."""
        cdef Core* c = &self.c
        return make_refusal(code, a, c.to_move, c.trick[0] // 9 if c.trick_len else -1,
                            c.win_card, c.trump, c.asker)

    # -- the position -------------------------------------------------------------------------

    @property
    def variant(self):
        return self._variant

    @property
    def dealer(self):
        return SEATS[self.c.dealer]

    @property
    def forehand(self):
        """The player who led trick 1."""
        return SEATS[self.c.forehand]

    @property
    def current_player(self):
        """The seat to move, or ``None`` once the deal is over."""
        return None if self.c.phase == P_OVER else SEATS[self.c.to_move]

    @property
    def phase(self):
        return PHASES[self.c.phase]

    def hand(self, seat):
        """The cards seat holds now."""
        return CardSet(self.c.hand[seat_of(seat)])

    def hand_mask(self, seat):
        return self.c.hand[seat_of(seat)]

    @property
    def hands(self):
        """The hands now, N E S W."""
        return tuple([CardSet(self.c.hand[i]) for i in range(4)])

    @property
    def initial_hands(self):
        """The hands as dealt, N E S W."""
        return tuple([CardSet(self.c.initial[i]) for i in range(4)])

    @property
    def trump(self):
        """The trump suit, or ``None`` while there are no trumps."""
        return SUITS[self.c.trump] if self.c.trump >= 0 else None

    @property
    def trump_team(self):
        """The team whose marriage made trumps, or ``None``."""
        return TEAMS[self.c.trump_team] if self.c.trump_team >= 0 else None

    @property
    def tricks_played(self):
        """The number of completed tricks."""
        return self.c.ntricks

    @property
    def tricks(self):
        """The completed tricks, in order."""
        cdef Core* c = &self.c
        return tuple([
            Trick(t + 1, SEATS[c.leaders[t]],
                  tuple([CARDS[c.plays[4 * t + i]] for i in range(4)]), SEATS[c.winners[t]])
            for t in range(c.ntricks)
        ])

    @property
    def current_trick(self):
        """The trick being played (perhaps with no card yet), or ``None`` once the deal is over."""
        cdef Core* c = &self.c
        if c.phase == P_OVER:
            return None
        return Trick(c.ntricks + 1, SEATS[c.leader],
                     tuple([CARDS[c.trick[i]] for i in range(c.trick_len)]), None)

    @property
    def winning_card(self):
        """The card winning the current trick so far, or ``None`` before its lead."""
        return CARDS[self.c.win_card] if self.c.trick_len and self.c.phase != P_OVER else None

    @property
    def events(self):
        """The public declaration events so far (RULES.md 7.1)."""
        cdef Core* c = &self.c
        return tuple([
            Event(c.events[i].after_trick, SEATS[c.events[i].seat], HOW[c.events[i].how],
                  SUITS[c.events[i].suit] if c.events[i].suit >= 0 else None,
                  bool(c.events[i].yes), c.events[i].points)
            for i in range(c.nevents)
        ])

    @property
    def marriages(self):
        """The declared marriages so far, in order."""
        return tuple([Marriage(e.suit, e.team, e.seat, e.how, e.points)
                      for e in self.events if e.yes])

    @property
    def locked(self):
        """The seats locked by questions (RULES.md 4.3)."""
        return frozenset([SEATS[i] for i in range(4) if self.c.locked >> i & 1])

    @property
    def asker(self):
        """While the phase is ANSWER, the seat whose ``ask-whole`` awaits the answer; else ``None``."""
        return SEATS[self.c.asker] if self.c.phase == P_ANSWER else None

    @property
    def history(self):
        """Every action applied, in order."""
        return tuple([ACTIONS[self.c.actions[i]] for i in range(self.c.nactions)])

    @property
    def public_history(self):
        """The history as every seat may know it (RULES.md 7.1, 7.2): every action but the
        ``answer``s, since which of several marriages a partner named is private (the events
        show the suit named). What ``Observation.history`` holds; while a partner chooses, a
        seat other than that partner sees the deal before the ``ask-whole`` (``seen_by``)."""
        return tuple([ACTIONS[self.c.actions[i]] for i in range(self.c.nactions)
                      if self.c.actions[i] < A_ANSWER])

    @property
    def answer_steps(self):
        """Whether every "yes" to ``ask-whole`` is answered as a step of its own (the class)."""
        return bool(self.c.answer_steps)

    @property
    def decisions(self):
        """The history as RECORD.md writes it: without the ``answer``s that ``answer_steps``
        forced on a partner holding one eligible marriage (no choice, so no action there, and
        the deal without ``answer_steps`` answers them at once). The history itself when off."""
        cdef Deal d
        cdef int i, a
        cdef list out = []
        if not self.c.answer_steps:
            return self.history
        d = self.after(0)
        for i in range(self.c.nactions):
            a = self.c.actions[i]
            if a < A_ANSWER or popcount64(legal_mask_of(&d.c)) > 1:
                out.append(ACTIONS[a])
            apply_action(&d.c, a)
        return tuple(out)

    def result(self):
        """The three columns per team and the game points (RULES.md 5.1), so far."""
        cdef Core* c = &self.c
        last = TEAMS[c.last_team] if c.last_team >= 0 else None
        game = (team_game_points(c, 0), team_game_points(c, 1))
        victory = (TEAMS[0] if victory_point(c.card_points[0])
                   else TEAMS[1] if victory_point(c.card_points[1]) else None)
        return DealResult(
            (c.tricks_won[0], c.tricks_won[1]),
            (c.card_points[0], c.card_points[1]),
            (c.marriage_points[0], c.marriage_points[1]),
            last,
            game,
            victory,
        )

    def observation(self, seat):
        """What ``seat`` may know now (RULES.md 7), as an ``Observation``: of this deal alone,
        so without a match score and with ``deal_number`` ``None`` (see ``Match.observation``)."""
        from dataclasses import replace
        from valtti.engine.observation import Observation
        seat = seat_of(seat)
        seen = self.seen_by(seat)
        if seen is not self:
            # The deal before the ask-whole (RULES.md 7.2), with nothing to do until it is
            # answered: the seat that asked has asked.
            return replace(seen.observation(seat), legal_actions=())
        to_move = self.current_player
        return Observation(
            seat=seat,
            hand=self.hand(seat),
            variant=self.variant,
            dealer=self.dealer,
            forehand=self.forehand,
            phase=self.phase,
            current_player=to_move,
            trump=self.trump,
            trump_team=self.trump_team,
            tricks=self.tricks,
            current_trick=self.current_trick,
            events=self.events,
            locked=self.locked,
            asker=self.asker,
            hand_sizes=(
                len(self.hand(0)), len(self.hand(1)), len(self.hand(2)), len(self.hand(3))
            ),
            result=self.result(),
            legal_actions=tuple(self.legal_actions()) if to_move == seat else (),
            history=self.public_history,
            refusals=self.refusals(seat),
            answer_steps=self.answer_steps,
        )

    # -- identity, copying, pickling ----------------------------------------------------------

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def _key(self):
        """What determines the deal: hands as dealt, dealer, variant, forehand, actions,
        ``answer_steps``."""
        return (self.initial_hands, self.dealer, self._variant, self.forehand,
                tuple([self.c.actions[i] for i in range(self.c.nactions)]),
                bool(self.c.answer_steps))

    def __reduce__(self):
        return (_rebuild, self._key())

    def __eq__(self, other):
        if not isinstance(other, Deal):
            return NotImplemented
        return self._key() == (<Deal>other)._key()

    __hash__ = None  # a deal changes as it is played

    def __repr__(self):
        c = self.current_player
        steps = " answer_steps" if self.c.answer_steps else ""
        return (f"<Deal dealer={self.dealer} trick={min(self.c.ntricks + 1, 9)} "
                f"phase={self.phase} to_move={c} trump={self.trump}{steps}>")


def _rebuild(hands, dealer, variant, forehand, actions, answer_steps=False):
    # answer_steps defaults: a deal pickled before it existed had it off.
    d = Deal(hands, dealer, variant, forehand, answer_steps=answer_steps)
    for a in actions:
        d.apply(a)
    return d


include "_tensors.pxi"
include "_solver.pxi"
include "_proofs.pxi"
