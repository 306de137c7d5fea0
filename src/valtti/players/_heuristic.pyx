# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The heuristic player: a good club player's rules of thumb, from what its seat may know alone.

It reads what the play so far shows about the hidden hands (the engine's proofs, settled with
its own hand: cards out, voids, cards a seat cannot or must hold), turns that into rough odds
that a card takes its trick (_odds.pxi), and weighs every legal card in card points: what the
trick brings, the trick-taking power a card keeps for later, and the declaration window a won
trick opens. The rules of thumb follow from those weights: win cheaply, let a partner's sure
trick stand and give it points, throw low when the trick is lost, cash sure winners, lead from
length, draw trumps when strong in them, keep marriage cards. At a window it declares a marriage
at once (trumps in its strongest suit), asks whole when it holds none, asks half when partner
may hold the other card, each by the chance of "yes" against what the locks break.

From trick 5 on it counts the rest of the deal out, as a club player counts cards
(_endgame.pxi): over sets of hidden hands drawn to agree with everything seen (_sampler.pxi), it
follows each card it may play to the end of the deal, taking its own best card later, and keeps
the one that leaves the team best placed. That plays the last trick and the victory point
exactly.

The match score sets what a deal is worth (RULES.md 6, _outlook.pxi): near the target the player
aims at exactly the game points it needs, leaving the victory point or the last trick to the
other team when it must, and it plays to take at least one trick.

It reads a deal's ``Core`` but only its own hand, the hand sizes and the public record, never
another hand. Its ties and draws come from the package's generator (the engine's ``rng_next``),
seeded with the player's seed. ``players.heuristic`` seats it; the research layer's learner
tables cimport ``heuristic_choose``.
"""

from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.string cimport memcpy

from valtti.engine._deal cimport (
    A_ANSWER, A_ASK_HALF, A_ASK_WHOLE, A_DECLARE, DECK, DECK_POINTS, HALF_DECK_POINTS,
    LITTLE_TRUMP_POINTS, MAX_PAIRS, NACTIONS, NCARDS, OK, P_ANSWER, P_DECLARATION, P_OVER,
    RANK_POINTS, Core, Deal, Proof, above, apply_action, beats, clz64, core_of_observation, ctz64,
    eligible_suits, legal_mask_of, marriage_bits, marriage_worth_of, mask_points, play_mask,
    popcount64, prove, rng_below, suit_mask, team_game_points, victory_point, whole_number,
    window_check,
)

include "_outlook.pxi"
include "_odds.pxi"
include "_sampler.pxi"
include "_endgame.pxi"

#: From this trick on the player counts the rest of the deal out (_endgame.pxi).
cdef int COUNTED = 5


# -- one decision ----------------------------------------------------------------------------------

# Everything one decision weighs, read from one position: the odds of the hidden hands, the
# match's outlook, what this player may declare.
cdef struct Judge:
    Know k
    Look look
    int declared, locked
    int partner_suits       # the suits whose K+Q partner could still declare or name
    int mine, may_ask_whole, halves     # what this player may declare or ask at a window
    double trick_points, rest_points
    double window           # what a window of its own is worth, in card points
    double porvoo           # what a trick is worth against Porvoo (RULES.md 6.1)
    double plan_points      # what a card point is worth now


cdef inline double worth(const Judge* j, int points, int later) noexcept nogil:
    """The standing after making ``points`` marriage points now, with ``later`` more that the
    team may still make."""
    cdef double unused
    return plan(&j.look, points, later, &unused)


cdef inline double gain(const Judge* j, int points) noexcept nogil:
    """How many game points' worth making ``points`` marriage points adds to the standing."""
    return (worth(j, points, 0) - worth(j, 0, 0)) / STEP


cdef double pair_chance(const Judge* j, int suit) noexcept nogil:
    """The chance that partner holds the K and Q of ``suit``."""
    cdef uint64_t pair = marriage_bits(suit)
    cdef int i
    if pair & j.k.hand:
        return 0.0
    for i in range(j.k.npairs):
        # a pair the partner cannot hold both cards of (a "no" to ask-whole)
        if (j.k.pair_seat[i] == j.k.partner and j.k.pair_cards[i] == pair
                and not (j.k.pair_counts[i] >> 2 & 1)):
            return 0.0
    return p_holds(&j.k, j.k.partner, ctz64(pair)) * p_holds(&j.k, j.k.partner, 63 - clz64(pair))


cdef double whole_chance(const Judge* j, int exclude) noexcept nogil:
    """The chance that partner holds a marriage it may still name or declare (not in the suit
    ``exclude``, -1 for none)."""
    cdef double none = 1.0
    cdef int s
    for s in range(4):
        if j.partner_suits >> s & 1 and s != exclude:
            none *= 1.0 - pair_chance(j, s)
    return 1.0 - none


cdef double strength(const Judge* j, int suit) noexcept nogil:
    """How well this hand would play ``suit`` as trumps: its length and its checkmaters. It
    names a marriage in answer to ask-whole by this, as it makes trumps."""
    cdef uint64_t cards = j.k.hand & suit_mask(suit)
    # the suit's checkmaters: its ace and ten (ranks 8 and 7)
    return popcount64(cards) + 0.5 * popcount64((cards >> (9 * suit)) & 0x180)


cdef int declarations(const Judge* j, double* values, int* actions) noexcept nogil:
    """The declarations open at a window now (into ``actions``), each with the expected
    standing after it (by the chance of "yes", less what the locks break), how many; compare
    the standing when the window passes unused."""
    cdef int points = marriage_worth_of(j.k.trump), later = popcount64(j.mine), n = 0, s
    cdef double made = worth(j, points, 0), unmade = worth(j, 0, 0), p, cost
    for s in range(4):
        if j.mine >> s & 1:
            values[n] = worth(j, points, later - 1)
            if j.k.trump < 0:
                values[n] += 1e-6 * strength(j, s)  # trumps in the longest, strongest suit
            actions[n] = A_DECLARE + s
            n += 1
    if j.may_ask_whole:
        # The asker is locked: its own marriages are lost.
        p = whole_chance(j, -1)
        values[n] = p * made + (1.0 - p) * unmade
        actions[n] = A_ASK_WHOLE
        n += 1
    for s in range(4):
        if j.halves >> s & 1:
            p = p_holds(&j.k, j.k.partner, ctz64(marriage_bits(s) & ~j.k.hand))
            # Both are locked: partner's own marriages, which an ask-whole or partner's own
            # window would make, are lost too.
            cost = whole_chance(j, s) * max(0.0, made - unmade) * 0.8
            values[n] = p * made + (1.0 - p) * unmade - cost
            actions[n] = A_ASK_HALF + s
            n += 1
    return n


cdef void judge_init(Judge* j, const Core* c, int me, const Rules* r) noexcept nogil:
    cdef Know* k = &j.k
    cdef double values[9], best
    cdef int actions[9], n, i, s, team, other, ours
    know_init(k, c, me, r)
    team = k.team
    other = team ^ 1
    j.declared = c.declared
    j.locked = c.locked
    j.partner_suits = eligible_suits(DECK, k.partner, c.declared, c.locked)
    j.trick_points = 0.0
    for i in range(c.trick_len):
        j.trick_points += RANK_POINTS[c.trick[i] % 9]
    j.rest_points = 0.0
    for i in range(k.nrest):
        j.rest_points += average_of(k, k.rest[i])
    look_init(&j.look, c, team, r)
    j.mine = j.halves = j.may_ask_whole = 0
    for s in range(4):
        if window_check(k.hand, me, c.declared, c.locked, c.trump, c.trump_team, c.whole_ask,
                        A_DECLARE + s) == OK:
            j.mine |= 1 << s
        if window_check(k.hand, me, c.declared, c.locked, c.trump, c.trump_team, c.whole_ask,
                        A_ASK_HALF + s) == OK:
            j.halves |= 1 << s
    j.may_ask_whole = window_check(k.hand, me, c.declared, c.locked, c.trump, c.trump_team,
                                   c.whole_ask, A_ASK_WHOLE) == OK
    plan(&j.look, 0, popcount64(j.mine), &j.plan_points)
    j.window = 0.0
    if k.number <= 8:
        best = worth(j, 0, 0)
        n = declarations(j, values, actions)
        for i in range(n):
            best = max(best, values[i])
        j.window = (best - worth(j, 0, 0)) / STEP * GAME_POINT
    j.porvoo = 0.0
    if c.tricks_won[team] == 0:
        # Without a trick the score goes to 0 (RULES.md 6.1).
        j.porvoo = GAME_POINT * (r.score[team] + 2) * k.number / 9.0
    elif c.tricks_won[other] == 0 and k.number >= 4:
        # Taking every trick sends the other team to 0.
        j.porvoo = GAME_POINT * 0.3 * r.score[other] * k.number / 9.0


cdef double keep(Judge* j, int card) noexcept nogil:
    """What holding on to ``card`` is worth in card points."""
    cdef Know* k = &j.k
    cdef double p = power(k, card), g, value
    # Its points come home if it takes a trick, and now and then on partner's trick.
    cdef double points = RANK_POINTS[card % 9] * (0.25 + 0.75 * p) + p * 3 * k.average
    cdef int suit = card // 9
    cdef uint64_t pair = marriage_bits(suit)
    value = j.plan_points * points
    if k.number <= 8 and ((<uint64_t>1) << card) & pair and not (j.declared >> suit & 1):
        if j.mine >> suit & 1:
            g = gain(j, marriage_worth_of(k.trump))
            if k.trump < 0:
                # The other team may make trumps first: then it is a little trump.
                g = max(g, 0.3 * gain(j, LITTLE_TRUMP_POINTS))
            value += 0.8 * max(0.0, g) * GAME_POINT
        elif pair & ~k.hand:
            # Half of a marriage partner may hold the other half of (RULES.md 4.2c).
            p = p_holds(k, k.partner, ctz64(pair & ~k.hand))
            value += 0.3 * p * max(0.0, gain(j, LITTLE_TRUMP_POINTS)) * GAME_POINT
    return value


cdef double lead_bonus(Judge* j, int card) noexcept nogil:
    """Leading rules of thumb the odds do not see: draw trumps when strong in them, lead from
    length, do not lead into a known void once trumps exist."""
    cdef Know* k = &j.k
    cdef int suit = card // 9, i, opponents[2]
    cdef double bonus = 0.5 * popcount64(k.hand & suit_mask(suit)), theirs[2], ruff
    if k.trump < 0:
        return bonus
    opponents[0] = (k.me + 1) & 3
    opponents[1] = (k.me + 3) & 3
    for i in range(2):
        theirs[i] = 1.0 - p_none(k, opponents[i], suit_mask(k.trump))
    if suit == k.trump:
        if popcount64(k.hand & suit_mask(k.trump)) * 2 >= popcount64(k.unseen & suit_mask(k.trump)):
            bonus += 4.0 * (theirs[0] + theirs[1])
    else:
        ruff = 0.0
        for i in range(2):
            ruff += p_none(k, opponents[i], suit_mask(suit)) * theirs[i]
        bonus -= 3.0 * ruff
    return bonus


cdef double card_value(Judge* j, int card) noexcept nogil:
    """What playing ``card`` now is worth, in card points (the rules of thumb)."""
    cdef Know* k = &j.k
    cdef double team, mine, value
    # Partner's window serves too while partner may still ask whole.
    cdef bint asks = k.trump < 0 and not (j.locked >> k.partner & 1)
    odds(k, card, &team, &mine)
    value = j.plan_points * team * (j.trick_points + RANK_POINTS[card % 9] + j.rest_points)
    value += j.window * (mine + (0.5 if asks else 0.0) * (team - mine))
    value += j.porvoo * team
    value -= keep(j, card)
    if k.leading:
        value += lead_bonus(j, card)
    return value


cdef int best_of(const double* values, const int* actions, int n, uint64_t* rng) noexcept nogil:
    """The best value's action, ties (within 1e-9) broken by the generator."""
    cdef double top = values[0]
    cdef int i, ties = 0, pick
    for i in range(1, n):
        top = max(top, values[i])
    for i in range(n):
        ties += values[i] >= top - 1e-9
    pick = 0 if ties == 1 else rng_below(rng, ties)
    for i in range(n):
        if values[i] >= top - 1e-9:
            if pick == 0:
                return actions[i]
            pick -= 1
    return actions[0]


cdef int heuristic_choose(const Core* c, const Rules* r, uint64_t* rng) noexcept nogil:
    """The heuristic player's action for the seat to move in ``c`` (which must not be over),
    read from what that seat may know alone; one legal action is taken at once, drawing
    nothing."""
    cdef Judge j
    cdef uint64_t legal = legal_mask_of(c), plays
    cdef double values[NACTIONS], totals[NCARDS], best_value, unmoved
    cdef int actions[NACTIONS], n = 0, a, i, best
    cdef int me = c.to_move
    if popcount64(legal) == 1:
        return ctz64(legal)
    judge_init(&j, c, me, r)
    if c.phase == P_ANSWER:
        a = A_ANSWER
        while a < NACTIONS:
            if legal >> a & 1:
                values[n] = strength(&j, a - A_ANSWER)
                actions[n] = a
                n += 1
            a += 1
        return best_of(values, actions, n, rng)
    if c.phase == P_DECLARATION:
        n = declarations(&j, values, actions)
        best = -1
        for i in range(n):
            if legal >> actions[i] & 1 and (
                    best < 0 or values[i] > best_value
                    or (values[i] == best_value and actions[i] > best)):
                best, best_value = actions[i], values[i]
        if best >= 0:
            unmoved = worth(&j, 0, popcount64(j.mine))
            if best_value > unmoved + 1e-9:
                return best
        n = 0
    plays = legal & DECK
    if popcount64(plays) > 1 and j.k.number >= COUNTED:
        # Few cards left: count the last tricks out.
        count_out(&j.k, &j.look, c, plays, rng, totals)
        i = 0
        while plays:
            actions[n] = ctz64(plays)
            values[n] = totals[i] + 1e-6 * card_value(&j, actions[n])
            n += 1
            i += 1
            plays &= plays - 1
        return best_of(values, actions, n, rng)
    while plays:
        actions[n] = ctz64(plays)
        values[n] = card_value(&j, actions[n])
        n += 1
        plays &= plays - 1
    return best_of(values, actions, n, rng)


cdef class Heuristic:
    """The heuristic player's decisions (``players.heuristic`` seats it): ``decide`` from an
    ``Observation``, ``choose`` from a ``Deal`` whose hidden hands it never reads. Its ties and
    draws come from its own generator, seeded with ``seed`` (an int, or ``None`` for one from
    the system)."""

    cdef uint64_t rng
    cdef Rules rules
    cdef object rules_for  # (variant, score, first deal) of ``rules``, or None

    def __init__(self, seed=None):
        if seed is None:
            from secrets import randbits
            seed = randbits(64)
        self.rng = whole_number(seed) & 0xFFFFFFFFFFFFFFFF
        self.rules_for = None

    def __reduce__(self):
        # Its generator's state is a seed that goes on from here; the rules are a cache.
        return (Heuristic, (self.rng,))

    cdef int _rules(self, object variant, object score, object deal_number) except -1:
        held = self.rules_for
        if (held is None or held[0] is not variant or held[1] != score
                or held[2] != (deal_number == 1)):
            self.rules_for = None
            rules_of(variant, score, deal_number == 1, &self.rules)
            self.rules_for = (variant, score, deal_number == 1)
        return 0

    def choose(self, Deal deal not None, score=(0, 0), deal_number=None):
        """The action number for the seat to move in ``deal``; ``score`` the match score before
        the deal (NS, EW) and ``deal_number`` which deal of its match this is, as
        ``Observation`` has them. ``ValueError`` once the deal is over."""
        if deal.c.phase == P_OVER:
            raise ValueError("the deal is over: nobody is to move")
        self._rules(deal._variant, score, deal_number)
        return heuristic_choose(&deal.c, &self.rules, &self.rng)

    def playout(self, Deal deal not None, score=(0, 0), deal_number=None, int count=1,
                int at_random=0):
        """The mean over ``count`` playouts of ``deal`` of the game points of the deal, NS's
        less EW's; ``deal`` unchanged. The seats in the mask ``at_random`` (bit ``seat``) play
        a legal action at random, as ``random`` does; the others decide as ``choose`` would,
        from what they may know."""
        if count < 1:
            raise ValueError(f"count must be at least 1, not {count}")
        cdef Core c
        cdef int i, a
        cdef long total = 0
        cdef uint64_t legal
        self._rules(deal._variant, score, deal_number)
        with nogil:
            for i in range(count):
                c = deal.c
                while c.phase != P_OVER:
                    if (at_random >> c.to_move) & 1:
                        legal = legal_mask_of(&c)
                        for a in range(<int>rng_below(&self.rng, popcount64(legal))):
                            legal &= legal - 1
                        a = ctz64(legal)
                    else:
                        a = heuristic_choose(&c, &self.rules, &self.rng)
                    apply_action(&c, a)
                total += team_game_points(&c, 0) - team_game_points(&c, 1)
        return total / <double>count

    def decide(self, observation):
        """The action number for ``observation``'s seat, which must be to move (else
        ``ValueError``), read from the observation alone (the engine's
        ``core_of_observation``)."""
        cdef Core c
        if observation.current_player is None or observation.current_player != observation.seat:
            raise ValueError(f"{observation.seat} has no action to choose: it is not its turn")
        core_of_observation(observation, &c)
        self._rules(observation.variant, observation.score or (0, 0), observation.deal_number)
        return heuristic_choose(&c, &self.rules, &self.rng)


# The tables of match_score_after by (variant, score), as bytes of Rules.after and .outcome.
cdef dict _RULE_TABLES = {}
cdef dict OUTCOMES = {None: -1, "NS": 0, "EW": 1, "draw": 2}


cdef int rules_of(object variant, object score, bint first_deal, Rules* r) except -1:
    """``r`` for a deal of ``variant`` at the match score ``score`` (NS, EW): what each deal
    would do to the match, as the engine's match_score_after says it."""
    cdef bytes after, outcome
    try:
        ns, ew = score
        key = (variant, whole_number(ns), whole_number(ew))
        if not (0 <= key[1] <= variant.target and 0 <= key[2] <= variant.target):
            raise ValueError
    except (TypeError, ValueError):
        raise ValueError(f"score must be two ints of 0 to {variant.target} (NS, EW), "
                         f"not {score!r}") from None
    tables = _RULE_TABLES.get(key)
    if tables is None:
        from valtti.engine.match import match_score_after
        afters, outcomes = bytearray(), bytearray()
        for took in ((False, False), (False, True), (True, False), (True, True)):
            for gp_ns in range(MAX_GP):
                for gp_ew in range(MAX_GP):
                    (a_ns, a_ew), end = match_score_after(key[1:], (gp_ns, gp_ew), took, variant)
                    afters += bytes((a_ns & 0xFF, a_ew & 0xFF))
                    outcomes.append(OUTCOMES[end] & 0xFF)
        if len(_RULE_TABLES) > 1024:
            _RULE_TABLES.clear()
        tables = _RULE_TABLES[key] = (bytes(afters), bytes(outcomes))
    after, outcome = tables
    memcpy(r.after, <const char*>after, sizeof(r.after))
    memcpy(r.outcome, <const char*>outcome, sizeof(r.outcome))
    r.score[0], r.score[1] = key[1], key[2]
    r.club_ace_leads = first_deal and variant.first_forehand == "club_ace_holder"
    return 0

