# Included from _deal.pyx: the ``quick`` player, the heuristic player's rules of thumb in C
# (players/heuristic.py and endgame.py; players/quick.py seats it), over what _odds.pxi reads.
#
# It reads what one seat may know of a deal: its own hand and the public record, never another
# hand; it weighs each card and declaration as ``heuristic`` does, counts the last tricks out
# over the hands _sampler.pxi draws as the Python sampler draws them, and draws from
# ``random.Random(seed)`` as the heuristic player does, so that it plays as ``heuristic`` with
# the same seed (docs/MEASUREMENTS.md has the share of decisions alike).

# -- one decision: heuristic._Judge -----------------------------------------------------------

cdef struct Judge:
    Know k
    Look look
    int declared, locked, partner_suits, mine, may_ask_whole, halves
    double trick_points, rest_points, window, porvoo, plan_points


cdef inline double worth(const Judge* j, int points, int later) noexcept nogil:
    cdef double unused
    return plan(&j.look, points, later, &unused)


cdef inline double gain(const Judge* j, int points) noexcept nogil:
    return (worth(j, points, 0) - worth(j, 0, 0)) / STEP


cdef double pair_chance(const Judge* j, int suit) noexcept nogil:
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
    cdef double none = 1.0
    cdef int s
    for s in range(4):
        if j.partner_suits >> s & 1 and s != exclude:
            none *= 1.0 - pair_chance(j, s)
    return 1.0 - none


cdef double strength(const Judge* j, int suit) noexcept nogil:
    cdef uint64_t cards = j.k.hand & suit_mask(suit)
    # the suit's checkmaters: its ace and ten (ranks 8 and 7)
    return popcount64(cards) + 0.5 * popcount64((cards >> (9 * suit)) & 0x180)


cdef int declarations(const Judge* j, double* values, int* actions) noexcept nogil:
    """heuristic._Judge.declarations: the open declarations with their expected standing."""
    cdef int points = marriage_worth_of(j.k.trump), later = popcount64(j.mine), n = 0, s
    cdef double made = worth(j, points, 0), unmade = worth(j, 0, 0), p, cost
    for s in range(4):
        if j.mine >> s & 1:
            values[n] = worth(j, points, later - 1)
            if j.k.trump < 0:
                values[n] += 1e-6 * strength(j, s)
            actions[n] = A_DECLARE + s
            n += 1
    if j.may_ask_whole:
        p = whole_chance(j, -1)
        values[n] = p * made + (1.0 - p) * unmade
        actions[n] = A_ASK_WHOLE
        n += 1
    for s in range(4):
        if j.halves >> s & 1:
            p = p_holds(&j.k, j.k.partner, ctz64(marriage_bits(s) & ~j.k.hand))
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
        j.porvoo = GAME_POINT * (r.score[team] + 2) * k.number / 9.0
    elif c.tricks_won[other] == 0 and k.number >= 4:
        j.porvoo = GAME_POINT * 0.3 * r.score[other] * k.number / 9.0


cdef double keep(Judge* j, int card) noexcept nogil:
    cdef Know* k = &j.k
    cdef double p = power(k, card), g, value
    cdef double points = RANK_POINTS[card % 9] * (0.25 + 0.75 * p) + p * 3 * k.average
    cdef int suit = card // 9
    cdef uint64_t pair = marriage_bits(suit)
    value = j.plan_points * points
    if k.number <= 8 and ((<uint64_t>1) << card) & pair and not (j.declared >> suit & 1):
        if j.mine >> suit & 1:
            g = gain(j, marriage_worth_of(k.trump))
            if k.trump < 0:
                g = max(g, 0.3 * gain(j, LITTLE_TRUMP_POINTS))
            value += 0.8 * max(0.0, g) * GAME_POINT
        elif pair & ~k.hand:
            p = p_holds(k, k.partner, ctz64(pair & ~k.hand))
            value += 0.3 * p * max(0.0, gain(j, LITTLE_TRUMP_POINTS)) * GAME_POINT
    return value


cdef double lead_bonus(Judge* j, int card) noexcept nogil:
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
    cdef Know* k = &j.k
    cdef double team, mine, value
    cdef bint asks = k.trump < 0 and not (j.locked >> k.partner & 1)
    odds(k, card, &team, &mine)
    value = j.plan_points * team * (j.trick_points + RANK_POINTS[card % 9] + j.rest_points)
    value += j.window * (mine + (0.5 if asks else 0.0) * (team - mine))
    value += j.porvoo * team
    value -= keep(j, card)
    if k.leading:
        value += lead_bonus(j, card)
    return value


# -- the last tricks counted out: endgame.count_out -------------------------------------------

cdef double leaf(const Core* c, const Look* look) noexcept nogil:
    """The standing after a finished deal (match.score_deal)."""
    return standing(look, c.tricks_won[0] > 0, c.tricks_won[1] > 0, team_game_points(c, 0),
                    team_game_points(c, 1))


cdef double expected(Core* c, int me, const Look* look, int exact, Gen* rng) noexcept nogil:
    """endgame._expected: me's best, the others' average (from trick ``exact`` on; before it
    one card drawn). ``c`` is the caller's scratch copy: a move without a choice is made in
    it, and only a choice copies."""
    cdef Core branch
    cdef uint64_t plays
    cdef double value, best = -1e300, total = 0.0
    cdef int n, k, rule
    cdef bint mine
    while True:
        if c.phase == P_OVER:
            return leaf(c, look)
        plays = play_mask(c, &rule)  # the legal cards: no declaration is made here
        n = popcount64(plays)
        if c.to_move != me and c.ntricks + 1 < exact:
            k = qbelow(rng, n)
            while k:
                plays &= plays - 1
                k -= 1
            n = 1
        if n > 1:
            break
        apply_action(c, ctz64(plays))
    mine = c.to_move == me
    while plays:
        if plays & (plays - 1):
            memcpy(&branch, c, sizeof(Core))
            apply_action(&branch, ctz64(plays))
            value = expected(&branch, me, look, exact, rng)
        else:  # the last choice takes the scratch itself
            apply_action(c, ctz64(plays))
            value = expected(c, me, look, exact, rng)
        best = max(best, value)
        total += value
        plays &= plays - 1
    return best if mine else total / n


cdef int all_worlds(const Know* k, uint64_t free, int seat, uint64_t* hands, uint64_t* out,
                    int n, int cap) noexcept nogil:
    """Every way to share ``free`` among the hidden seats from ``seat`` on, each filled up to
    its size with cards it may hold (into ``out``, four masks a world); how many in all."""
    while seat < 4 and seat == k.me:
        seat += 1
    if seat == 4:
        if not free and n < cap and ties_hold(k, (1 << k.npairs) - 1, hands):
            memcpy(&out[4 * n], hands, 4 * sizeof(uint64_t))
            n += 1
        return n
    return choose_cards(k, free, seat, free & k.possible[seat],
                        k.sizes[seat] - popcount64(hands[seat]), hands, out, n, cap)


cdef int choose_cards(const Know* k, uint64_t free, int seat, uint64_t candidates, int need,
                      uint64_t* hands, uint64_t* out, int n, int cap) noexcept nogil:
    """all_worlds with ``need`` more of ``candidates`` to give to ``seat``."""
    cdef uint64_t pick
    if need == 0:
        return all_worlds(k, free, seat + 1, hands, out, n, cap)
    if popcount64(candidates) < need:
        return n
    pick = candidates & -candidates
    hands[seat] |= pick
    n = choose_cards(k, free & ~pick, seat, candidates & ~pick, need - 1, hands, out, n, cap)
    hands[seat] &= ~pick
    return choose_cards(k, free, seat, candidates & ~pick, need, hands, out, n, cap)


cdef enum:
    MAX_WORLDS = 256


cdef void count_out(Judge* j, const Core* c, uint64_t plays, Gen* rng,
                    double* totals) noexcept nogil:
    """endgame.count_out: for each card of ``plays`` (in card order) the expected standing
    after the deal when it is played now, over hidden hands that agree with what is known."""
    cdef Know* k = &j.k
    cdef uint64_t worlds[4 * MAX_WORLDS]
    cdef uint64_t hands[4], free, p
    cdef Core world, after
    cdef int n = 0, w, i, s, exact = 7 if k.number == 7 else 8
    if k.number >= 8:
        free = k.unseen
        for s in range(4):
            hands[s] = k.hand if s == k.me else k.known[s]
            free &= ~hands[s]
        n = all_worlds(k, free, 0, hands, worlds, 0, MAX_WORLDS)
    elif sampler_init(&SAMPLER, k):
        for n in range(WORLDS[k.number]):
            sampler_draw(&SAMPLER, rng, &worlds[4 * n])
        n = WORLDS[k.number]
    i = 0
    p = plays
    while p:
        totals[i] = 0.0
        i += 1
        p &= p - 1
    for w in range(n):
        memcpy(&world, c, sizeof(Core))
        for s in range(4):
            world.hand[s] = worlds[4 * w + s]
        i = 0
        p = plays
        while p:
            memcpy(&after, &world, sizeof(Core))
            apply_action(&after, ctz64(p))
            totals[i] += expected(&after, k.me, &j.look, exact, rng)
            i += 1
            p &= p - 1
    for s in range(i):
        totals[s] /= max(1, n)


cdef int best_of(const double* values, const int* actions, int n, Gen* rng) noexcept nogil:
    """heuristic._best: the best value's action, ties (within 1e-9) broken by the generator."""
    cdef double top = values[0]
    cdef int i, ties = 0, pick
    for i in range(1, n):
        top = max(top, values[i])
    for i in range(n):
        ties += values[i] >= top - 1e-9
    pick = 0 if ties == 1 else qbelow(rng, ties)
    for i in range(n):
        if values[i] >= top - 1e-9:
            if pick == 0:
                return actions[i]
            pick -= 1
    return actions[0]


cdef int quick_choose(const Core* c, const Rules* r, Gen* rng) noexcept nogil:
    """The ``quick`` player's action for the seat to move in ``c`` (which must not be over):
    heuristic.HeuristicPlayer.choose, read from that seat's knowledge alone."""
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
        count_out(&j, c, plays, rng, totals)
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


cdef class Quick:
    """The ``quick`` player's decisions (players/quick.py): ``choose(deal, score)`` is its
    action number for the seat to move, read from what that seat may know; ties and its
    counting draw from its own generator, seeded with ``seed``."""

    cdef Gen rng
    cdef Rules rules
    cdef object rules_for  # (variant, score, first deal) of ``rules``, or None

    def __init__(self, seed=None):
        if seed is None:
            import random
            seed = random.getrandbits(64)
        # random.Random(seed) for a seed below 2**64 (which seeds from its absolute value)
        self.rng.seed = abs(seed) & 0xFFFFFFFFFFFFFFFF
        self.rng.seeded = 0
        self.rules_for = None

    def choose(self, Deal deal not None, score=(0, 0), deal_number=None):
        """The action number; ``score`` the match score before the deal (NS, EW) and
        ``deal_number`` which deal of its match this is, as ``Observation`` has them.
        ``ValueError`` once the deal is over."""
        if deal.c.phase == P_OVER:
            raise ValueError("the deal is over: nobody is to move")
        held = self.rules_for
        if (held is None or held[0] is not deal._variant or held[1] != score
                or held[2] != (deal_number == 1)):
            self.rules_for = None
            rules_of(deal._variant, score, deal_number == 1, &self.rules)
            self.rules_for = (deal._variant, score, deal_number == 1)
        return quick_choose(&deal.c, &self.rules, &self.rng)


# The tables of match_score_after by (variant, score), as bytes of Rules.after and .outcome.
cdef dict _RULE_TABLES = {}
OUTCOMES = {None: -1, "NS": 0, "EW": 1, "draw": 2}


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

