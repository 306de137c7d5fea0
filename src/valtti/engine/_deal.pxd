# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The engine's core in C, shared with the compiled parts of the layers above (they
``cimport`` it): the state of one deal as a ``Core`` struct, the rules of play over it
(RULES.md 3, 4 and 5.1) as inline functions, the package's generator, and what the public
record proves about the hands (``prove``, _proofs.pxi).

The rules are written here once and compiled into each extension that cimports them, so a
player or a learner table steps a deal as fast as the engine does. ``_deal.pyx`` owns the
numbers of scoring (read from ``cards.py``) and the ``Deal`` class around a ``Core``.
"""

from libc.stdint cimport int8_t, uint8_t, uint64_t

cdef extern from *:
    int ctz64 "__builtin_ctzll"(unsigned long long) nogil
    int clz64 "__builtin_clzll"(unsigned long long) nogil
    int popcount64 "__builtin_popcountll"(unsigned long long) nogil

# The cards as bits (cards.py's numbering: card = 9 * suit + rank, the ace rank 8).
cdef extern from *:
    """
    #define VALTTI_SUIT_BITS 0x1FFULL
    #define VALTTI_DECK ((1ULL << 36) - 1)
    #define VALTTI_ACES ((1ULL << 8) | (1ULL << 17) | (1ULL << 26) | (1ULL << 35))
    """
    const uint64_t SUIT_BITS "VALTTI_SUIT_BITS"
    const uint64_t DECK "VALTTI_DECK"
    const uint64_t ACES "VALTTI_ACES"

cdef enum:
    NCARDS = 36
    A_DECLARE = 36
    A_ASK_WHOLE = 40
    A_ASK_HALF = 41
    A_ANSWER = 45
    NACTIONS = 49
    MAX_HISTORY = 64
    MAX_EVENTS = 8
    MAX_PAIRS = 32          # pair constraints a record can prove (4 per event at most)

# Phases, in the order of views.Phase.
cdef enum:
    P_PLAY = 0
    P_DECLARATION = 1
    P_ANSWER = 2
    P_OVER = 3

# How a marriage was made, in the order of _deal.HOW.
cdef enum:
    H_DECLARE = 0
    H_ASK_WHOLE = 1
    H_ASK_HALF = 2

# whole_ask_after_trump, in the order of _deal.WHOLE_ASK.
cdef enum:
    W_NOT_TRUMP_TEAM = 0
    W_ANYONE = 1
    W_NOBODY = 2

# Why an action is not legal (_deal.CHECK_CODES names each as a RefusalCode). Plays get the
# rule that limited them (RULES.md 3.2); 0 is legal.
cdef enum:
    OK = 0
    E_OVER
    E_ANSWER_PENDING
    E_NOT_HELD
    E_FIRST_ACE
    E_FOLLOW
    E_FOLLOW_BEAT
    E_TRUMP
    E_TRUMP_BEAT
    E_BEFORE_FIRST_TRICK
    E_WINDOW_USED
    E_NOT_WINDOW
    E_DECLARED
    E_NO_MARRIAGE
    E_LOCKED
    E_WHOLE_TRUMP_TEAM
    E_WHOLE_NOBODY
    E_HALF_NOT_ONE
    E_NO_QUESTION
    E_NOT_ELIGIBLE

cdef struct Ev:
    uint8_t after_trick
    uint8_t seat
    uint8_t how
    int8_t suit
    uint8_t yes
    uint8_t points

cdef struct Core:
    uint64_t hand[4]
    uint64_t initial[4]
    int8_t trick[4]          # the current trick's cards in play order
    int8_t trump             # -1: no trumps yet
    int8_t trump_team        # the team whose marriage made trumps, or -1
    int8_t last_team         # the team that took trick 9, or -1
    uint8_t trick_len
    uint8_t win_card         # the winning card of the current trick so far
    uint8_t win_pos          # its position in the trick
    uint8_t leader
    uint8_t to_move
    uint8_t phase
    uint8_t ntricks          # completed tricks
    uint8_t declared         # mask of declared suits
    uint8_t locked           # mask of locked seats
    uint8_t dealer
    uint8_t forehand
    uint8_t asker            # the asker while phase == P_ANSWER
    uint8_t tricks_won[2]
    uint8_t card_points[2]
    uint8_t marriage_points[2]
    uint8_t whole_ask
    uint8_t must_overtrump
    uint8_t must_trump
    uint8_t first_trick_ace
    uint8_t answer_steps     # every "yes" to ask-whole is answered as a step (Deal answer_steps)
    uint8_t nactions
    uint8_t nevents
    uint8_t actions[MAX_HISTORY]
    uint8_t plays[NCARDS]    # every card played, in order: trick i is plays[4i:4i+4]
    uint8_t leaders[9]
    uint8_t winners[9]
    Ev events[MAX_EVENTS]

# The numbers of scoring, as cards.py has them (its table of card points is the only one):
# _deal.pyx fills them from there.
cdef uint8_t RANK_POINTS[9]
cdef int DECK_POINTS
cdef int HALF_DECK_POINTS
cdef int TRUMP_MARRIAGE_POINTS
cdef int LITTLE_TRUMP_POINTS
# The length of the observation section of a seat's tensors (_tensors.pxi).
cdef int N_OBS


# -- scoring (RULES.md 5.1) ----------------------------------------------------------------------

cdef inline int victory_point(int card_points) noexcept nogil:
    """1 if a team with ``card_points`` card points has the victory point (RULES.md 5.1):
    more than half the deck's; at 60-60 neither team has it."""
    return card_points > HALF_DECK_POINTS


cdef inline int game_points(int marriage_points, int took_last, int card_points) noexcept nogil:
    """A team's game points for a deal (RULES.md 5.1): its marriage points, 1 for the last
    trick, 1 for the victory point. The one place a deal is scored: the solver's leaves and
    bounds, the tensors' columns and the players' counts come here too."""
    return marriage_points + took_last + victory_point(card_points)


cdef inline int team_game_points(const Core* c, int team) noexcept nogil:
    """Team's game points in c so far (RULES.md 5.1)."""
    return game_points(c.marriage_points[team], c.last_team == team, c.card_points[team])


cdef inline int marriage_worth_of(int trump) noexcept nogil:
    """What a marriage scores with trumps ``trump`` (-1: none yet): 2 when it makes trumps,
    1 for a little trump (RULES.md 4.4)."""
    return LITTLE_TRUMP_POINTS if trump >= 0 else TRUMP_MARRIAGE_POINTS


cdef inline int mask_points(uint64_t m) noexcept nogil:
    """The card points of the cards of ``m``."""
    cdef int p = 0
    while m:
        p += RANK_POINTS[ctz64(m) % 9]
        m &= m - 1
    return p


# -- cards -----------------------------------------------------------------------------------

cdef inline uint64_t suit_mask(int suit) noexcept nogil:
    return SUIT_BITS << (9 * suit)


cdef inline uint64_t marriage_bits(int suit) noexcept nogil:
    """The K and Q of a suit (ranks 6 and 5)."""
    return (<uint64_t>3) << (9 * suit + 5)


cdef inline uint64_t above(int card) noexcept nogil:
    """The cards of card's suit that beat it."""
    return suit_mask(card // 9) & ~(((<uint64_t>2) << card) - 1)


cdef inline bint beats(int card, int win, int trump) noexcept nogil:
    """Whether card takes over a trick that win wins so far (RULES.md 3.1)."""
    if card // 9 == win // 9:
        return card > win
    return card // 9 == trump


# -- play (RULES.md 3.2) -----------------------------------------------------------------------

cdef struct Tiers:
    int n
    uint64_t cond[4]
    uint64_t allowed[4]
    int rule[4]


cdef inline void add_tier(Tiers* t, uint64_t cond, uint64_t allowed, int rule) noexcept nogil:
    t.cond[t.n] = cond
    t.allowed[t.n] = allowed
    t.rule[t.n] = rule
    t.n += 1


cdef inline void play_tiers(int led, int win, int trump, int first_trick, int first_trick_ace,
                            int must_overtrump, int must_trump, Tiers* t) noexcept nogil:
    """RULES.md 3.2 (and the first-trick ace) as ordered tiers (condition, allowed cards, rule):
    the first tier whose condition meets the hand decides which of its cards may be played;
    when none does, any card may. ``led`` is the led card, or -1 for the lead itself; ``win``
    the winning card so far; ``trump`` -1 without trumps.

    Both legality (``play_mask``) and what a past play proves (``shown_absent``) read these
    tiers, so every variant switch of play is honoured here alone.
    """
    cdef uint64_t led_suit, trumps
    t.n = 0
    if led < 0:
        if first_trick_ace and first_trick:
            add_tier(t, ACES, ACES, E_FIRST_ACE)
        return
    led_suit = suit_mask(led // 9)
    if win // 9 == led // 9:
        add_tier(t, above(win), above(win), E_FOLLOW_BEAT)
    add_tier(t, led_suit, led_suit, E_FOLLOW)
    if trump < 0 or trump == led // 9:
        return
    trumps = suit_mask(trump)
    if win // 9 != trump:
        add_tier(t, trumps, trumps, E_TRUMP)
        return
    # The trick is trumped already: a trump that beats it, or (must_overtrump=false) any trump
    # while holding one that would; failing that, any trump unless trumping is optional.
    if must_overtrump:
        add_tier(t, above(win), above(win), E_TRUMP_BEAT)
    else:
        add_tier(t, above(win), trumps, E_TRUMP)
    if must_trump:
        add_tier(t, trumps, trumps, E_TRUMP)


cdef inline uint64_t play_mask(const Core* c, int* rule) noexcept nogil:
    """The cards the player to move may play (RULES.md 3.2), and in rule the rule that limited them."""
    cdef uint64_t h = c.hand[c.to_move]
    cdef Tiers t
    cdef int i
    play_tiers(c.trick[0] if c.trick_len else -1, c.win_card, c.trump, c.ntricks == 0,
               c.first_trick_ace, c.must_overtrump, c.must_trump, &t)
    for i in range(t.n):
        if h & t.cond[i]:
            rule[0] = t.rule[i]
            return h & t.allowed[i]
    rule[0] = OK
    return h


cdef inline uint64_t shown_absent(const Tiers* t, int card) noexcept nogil:
    """What playing ``card`` under tiers ``t`` proves the player did not hold: the condition of
    every tier before the first that allows the card (one of those would have decided)."""
    cdef uint64_t absent = 0
    cdef int i
    for i in range(t.n):
        if t.allowed[i] >> card & 1:
            break
        absent |= t.cond[i]
    return absent


# -- declarations (RULES.md 4) -----------------------------------------------------------------

cdef inline int eligible_suits(uint64_t hand, int seat, int declared, int locked) noexcept nogil:
    """Suits in which seat could declare or name a marriage: K+Q in hand, undeclared, not locked."""
    cdef int suits = 0, s
    if locked >> seat & 1:
        return 0
    for s in range(4):
        if (hand & marriage_bits(s)) == marriage_bits(s) and not (declared >> s & 1):
            suits |= 1 << s
    return suits


cdef inline int eligible_marriages(const Core* c, int seat) noexcept nogil:
    return eligible_suits(c.hand[seat], seat, c.declared, c.locked)


cdef inline int window_check(uint64_t hand, int x, int declared, int locked, int trump,
                             int trump_team, int whole_ask, int a) noexcept nogil:
    """OK, or why seat x holding hand may not make declaration or question a at a declaration
    window (RULES.md 4.2), with the suits declared, seats locked and trumps as given."""
    cdef int s
    cdef uint64_t held
    if a < A_ASK_WHOLE:
        s = a - A_DECLARE
        if declared >> s & 1:
            return E_DECLARED
        if (hand & marriage_bits(s)) != marriage_bits(s):
            return E_NO_MARRIAGE
        return E_LOCKED if locked >> x & 1 else OK
    if a == A_ASK_WHOLE:
        if whole_ask == W_NOT_TRUMP_TEAM and trump_team == (x & 1):
            return E_WHOLE_TRUMP_TEAM
        if whole_ask == W_NOBODY and trump >= 0:
            return E_WHOLE_NOBODY
        return OK
    s = a - A_ASK_HALF
    if declared >> s & 1:
        return E_DECLARED
    held = hand & marriage_bits(s)
    return OK if held != 0 and held != marriage_bits(s) else E_HALF_NOT_ONE


cdef inline int declaration_check(const Core* c, int a) noexcept nogil:
    """OK, or why action a (a declaration, question or answer) is not legal now (RULES.md 4)."""
    cdef int x = c.to_move
    if c.phase == P_OVER:
        return E_OVER
    if a >= A_ANSWER:
        if c.phase != P_ANSWER:
            return E_NO_QUESTION
        return OK if eligible_marriages(c, x) >> (a - A_ANSWER) & 1 else E_NOT_ELIGIBLE
    if c.phase == P_ANSWER:
        return E_ANSWER_PENDING
    if c.phase != P_DECLARATION:
        if c.ntricks == 0:
            return E_BEFORE_FIRST_TRICK
        return E_WINDOW_USED if c.trick_len == 0 else E_NOT_WINDOW
    return window_check(c.hand[x], x, c.declared, c.locked, c.trump, c.trump_team,
                        c.whole_ask, a)


# -- the state machine ---------------------------------------------------------------------------

cdef inline int action_check(const Core* c, int a) noexcept nogil:
    """OK, or why action number a (0 <= a < NACTIONS) is not legal now."""
    cdef int rule
    if a >= NCARDS:
        return declaration_check(c, a)
    if c.phase == P_OVER:
        return E_OVER
    if c.phase == P_ANSWER:
        return E_ANSWER_PENDING
    if not (c.hand[c.to_move] >> a & 1):
        return E_NOT_HELD
    return OK if play_mask(c, &rule) >> a & 1 else rule


cdef inline uint64_t legal_mask_of(const Core* c) noexcept nogil:
    """The legal actions as a mask over action numbers."""
    cdef int rule, a
    cdef uint64_t m
    if c.phase == P_OVER:
        return 0
    if c.phase == P_ANSWER:
        return (<uint64_t>eligible_marriages(c, c.to_move)) << A_ANSWER
    m = play_mask(c, &rule)
    if c.phase == P_DECLARATION:
        for a in range(A_DECLARE, A_ANSWER):
            if declaration_check(c, a) == OK:
                m |= (<uint64_t>1) << a
    return m


cdef inline int whole_yeses(const Core* c) noexcept nogil:
    """How many ask-whole questions have been answered "yes" so far."""
    cdef int i, n = 0
    for i in range(c.nevents):
        if c.events[i].how == H_ASK_WHOLE and c.events[i].yes:
            n += 1
    return n


cdef inline void add_event(Core* c, int seat, int how, int suit, int yes, int points) noexcept nogil:
    cdef Ev* e = &c.events[c.nevents]
    e.after_trick = c.ntricks
    e.seat = seat
    e.how = how
    e.suit = suit
    e.yes = yes
    e.points = points
    c.nevents += 1


cdef inline void marry(Core* c, int seat, int suit, int how) noexcept nogil:
    """Suit becomes a declared marriage of seat's team (RULES.md 4.4)."""
    cdef int team = seat & 1, points = marriage_worth_of(c.trump)
    c.declared |= 1 << suit
    if c.trump < 0:
        c.trump = suit
        c.trump_team = team
    c.marriage_points[team] += points
    add_event(c, seat, how, suit, 1, points)


cdef inline void play_card(Core* c, int card) noexcept nogil:
    cdef int seat = c.to_move, i, winner, team, points = 0
    c.hand[seat] &= ~((<uint64_t>1) << card)
    c.plays[4 * c.ntricks + c.trick_len] = card
    if c.trick_len == 0 or beats(card, c.win_card, c.trump):
        c.win_card = card
        c.win_pos = c.trick_len
    c.trick[c.trick_len] = card
    c.trick_len += 1
    if c.trick_len < 4:
        c.to_move = (seat + 1) & 3
        c.phase = P_PLAY
        return
    winner = (c.leader + c.win_pos) & 3
    team = winner & 1
    for i in range(4):
        points += RANK_POINTS[c.trick[i] % 9]
    c.card_points[team] += points
    c.tricks_won[team] += 1
    c.leaders[c.ntricks] = c.leader
    c.winners[c.ntricks] = winner
    c.ntricks += 1
    c.trick_len = 0
    c.leader = winner
    c.to_move = winner
    if c.ntricks == 9:
        c.last_team = team
        c.phase = P_OVER
    else:
        c.phase = P_DECLARATION


cdef inline void apply_action(Core* c, int a) noexcept nogil:
    """Apply a legal action."""
    cdef int x = c.to_move, partner = (c.to_move + 2) & 3, suits, s
    cdef uint64_t held
    c.actions[c.nactions] = a
    c.nactions += 1
    if a < NCARDS:
        play_card(c, a)
        return
    if a < A_ASK_WHOLE:
        marry(c, x, a - A_DECLARE, H_DECLARE)
    elif a == A_ASK_WHOLE:
        c.locked |= 1 << x
        suits = eligible_marriages(c, partner)
        if suits == 0:
            add_event(c, x, H_ASK_WHOLE, -1, 0, 0)
        elif suits & (suits - 1) == 0 and not c.answer_steps:
            marry(c, x, ctz64(suits), H_ASK_WHOLE)
        else:
            # The partner names a marriage as a step of its own: a choice among several, or
            # with answer_steps any "yes", so that the turn tells no more than yes (RULES.md 7.2).
            c.asker = x
            c.to_move = partner
            c.phase = P_ANSWER
            return
    elif a < A_ANSWER:
        s = a - A_ASK_HALF
        c.locked |= (1 << x) | (1 << partner)
        held = c.hand[x] & marriage_bits(s)
        if c.hand[partner] & (marriage_bits(s) ^ held):
            marry(c, x, s, H_ASK_HALF)
        else:
            add_event(c, x, H_ASK_HALF, s, 0, 0)
    else:
        x = c.asker
        marry(c, x, a - A_ANSWER, H_ASK_WHOLE)
        c.to_move = x
    c.phase = P_PLAY


# -- the generator -------------------------------------------------------------------------------

cdef inline uint64_t rng_next(uint64_t* state) noexcept nogil:
    """The next 64 bits of the package's generator (SplitMix64) whose state is ``state``: the
    engine's shuffles and playouts, the players' ties and draws, the learner tables' deals.
    ``SplitMix`` draws the same from Python."""
    cdef uint64_t z
    state[0] += 0x9E3779B97F4A7C15ULL
    z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t rng_below(uint64_t* state, uint64_t n) noexcept nogil:
    """A number from 0 to ``n - 1`` (``n`` >= 1): 64 bits modulo ``n``, whose bias is below
    n / 2**64 (2**-44 for the largest ``n`` drawn here, a count of endgame hands)."""
    return rng_next(state) % n


# -- exported from _deal.pyx (called once a deal or a decision, not in a search) ------------------

cdef void shuffle_hands(uint64_t seed, uint64_t* hands) noexcept nogil
cdef void replay_before_last(const Core* src, Core* dst) noexcept nogil
cdef void encode_observation(const Core* c, int seat, int target, int score_own,
                             int score_other, int variant_bits, float* t) noexcept nogil
cdef int variant_bits_of(object variant) except -1
cdef object whole_number(object value)
cdef object seat_of(object seat)
cdef int core_of_observation(object observation, Core* c) except -1


# -- what the public record proves (_proofs.pxi) ---------------------------------------------------

cdef struct Proof:
    uint64_t absent[4]           # cards each seat cannot hold now (or did not hold then)
    uint64_t present[4]          # cards each seat held, if it has not played them since
    int npairs
    uint8_t pair_seat[MAX_PAIRS]
    uint64_t pair_cards[MAX_PAIRS]    # the unplayed cards of one suit's K and Q
    uint8_t pair_counts[MAX_PAIRS]    # bit k: the seat may hold k of them now

cdef void prove(const Core* c, bint club_ace_leads, Proof* p) noexcept nogil


cdef class Deal:
    cdef Core c
    cdef object _variant
    cdef void _setup(self, uint64_t* hands, int dealer, int forehand, object variant,
                     object answer_steps) except *
    cdef _answer_from(self, list named)
    cdef _refuse(self, object action)
    cdef _refusal(self, int code, int a)
