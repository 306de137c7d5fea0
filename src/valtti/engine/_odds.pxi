# Included from _deal.pyx: what the quick player (_quick.pxi) reads of one seat's position, as
# the heuristic player reads it: the match around the deal (players/outlook.py) and the hidden
# hands (engine/inference.py's proofs, players/knowledge.py's settling, players/odds.py's
# chances), from that seat's hand and the public record alone, with the same numbers (a test
# keeps them equal).

from libc.math cimport erf, exp, sqrt

cdef double GAME_POINT = 40.0       # outlook.GAME_POINT
cdef double STEP = 0.04             # outlook.STEP
cdef double DRAW_WORTH = 0.25       # outlook._DRAW
cdef double LATER = 0.6             # outlook._LATER
cdef double MARGIN = 0.03           # outlook._MARGIN
cdef double SPREAD = 2.1            # outlook._SPREAD
cdef double SHARE[2]                # outlook._SHARE
cdef double LAST_ODDS[4][2]         # outlook._LAST_ODDS, by aims (1,1), (1,0), (0,1), (0,0)
cdef int AIMS[4][2]
cdef double DECAY[2]                # odds._DECAY
cdef int WORLDS[10]                 # endgame._WORLDS, by trick
cdef int COUNTED = 5                # heuristic._COUNTED

#: The numbers above as the Python modules name them (tests/test_quick.py compares them).
QUICK_NUMBERS = {}


cdef int quick_numbers_init() except -1:
    cdef int i
    SHARE[0], SHARE[1] = 0.455, 0.59
    DECAY[0], DECAY[1] = 0.9, 0.85
    aims = ((1, 1), (1, 0), (0, 1), (0, 0))
    odds = ((0.52, 0.86), (0.33, 0.66), (0.34, 0.41), (0.19, 0.43))
    for i in range(4):
        AIMS[i][0], AIMS[i][1] = aims[i]
        LAST_ODDS[i][0], LAST_ODDS[i][1] = odds[i]
    for i in range(10):
        WORLDS[i] = 0
    WORLDS[5], WORLDS[6], WORLDS[7] = 12, 12, 6
    QUICK_NUMBERS.update({
        "GAME_POINT": GAME_POINT, "STEP": STEP, "_DRAW": DRAW_WORTH, "_LATER": LATER,
        "_MARGIN": MARGIN, "_SPREAD": SPREAD, "_SHARE": (SHARE[0], SHARE[1]),
        "_LAST_ODDS": dict(zip(aims, odds)), "_DECAY": (DECAY[0], DECAY[1]),
        "_WORLDS": {5: 12, 6: 12, 7: 6}, "_COUNTED": COUNTED,
    })
    return 0
quick_numbers_init()


cdef enum:
    MAX_GP = 16     # game points a team may make in a deal, in the table below: 0 to 15

# The match around the deal: what every deal would do to it, read from the engine's
# match_score_after once (rules_of: the rules of RULES.md 6 stay there), and whether the
# forehand is known to hold the ace of clubs (first_forehand=club_ace_holder, first deal).
cdef struct Rules:
    # by took a trick (NS, EW), game points (NS, EW): the match score after (NS, EW), and the
    # outcome (-1 none, 0 NS won, 1 EW won, 2 a draw)
    int8_t after[2][2][MAX_GP][MAX_GP][2]
    int8_t outcome[2][2][MAX_GP][MAX_GP]
    int score[2]        # the match score before the deal
    int club_ace_leads


# The player's generator: ``random.Random(seed)``, seeded when first drawn from (most decisions
# draw nothing), so that its ties fall as the heuristic player's with the same seed.
cdef struct Gen:
    Twister tw
    uint64_t seed
    uint8_t seeded


cdef inline Twister* gen_twister(Gen* g) noexcept nogil:
    cdef Twister* tw = &g.tw
    if not g.seeded:
        tw_seed(&tw, &g.seed, 1)
        g.seeded = 1
    return tw


cdef inline int qbelow(Gen* g, int n) noexcept nogil:
    """``randrange(n)``."""
    return tw_below(gen_twister(g), n)


cdef inline int mask_points(uint64_t m) noexcept nogil:
    cdef int p = 0
    while m:
        p += RANK_POINTS[ctz64(m) % 9]
        m &= m - 1
    return p


# -- the match: outlook.Outlook ----------------------------------------------------------------

cdef struct Look:
    int team
    const Rules* r
    int marriages[2]
    int settled
    double victory[2]
    double density[2]
    double prior[2]


cdef inline double normal(double x) noexcept nogil:
    return 0.5 * (1.0 + erf(x / sqrt(2.0)))


cdef inline double bell(double x) noexcept nogil:
    return exp(-0.5 * x * x) / sqrt(2.0 * 3.141592653589793)


cdef void victory_odds(int ours, int left, double* chance, double* rise) noexcept nogil:
    cdef double spread = SPREAD * sqrt(left) + 1.0, x
    cdef int i
    for i in range(2):
        x = (ours + SHARE[i] * left - (HALF_DECK_POINTS + 0.5)) / spread
        chance[i] = normal(x)
        rise[i] = bell(x) / spread


cdef void look_init(Look* k, const Core* c, int team, const Rules* r) noexcept nogil:
    cdef int ours = c.card_points[team], theirs = c.card_points[team ^ 1]
    cdef double won, unused[2]
    k.team = team
    k.r = r
    k.marriages[0] = c.marriage_points[0]
    k.marriages[1] = c.marriage_points[1]
    k.settled = victory_point(ours) or not victory_point(DECK_POINTS - theirs)
    won = 1.0 if victory_point(ours) else 0.0
    k.victory[0] = k.victory[1] = k.prior[0] = k.prior[1] = won
    k.density[0] = k.density[1] = 0.0
    if not k.settled:
        victory_odds(ours, DECK_POINTS - ours - theirs, k.victory, k.density)
        victory_odds(0, DECK_POINTS, k.prior, unused)


cdef double standing(const Look* k, int took0, int took1, int gp0, int gp1) noexcept nogil:
    """outlook.standing after a deal in which the teams took a trick or not and made these
    game points (match_score_after, from the table of ``k.r``)."""
    cdef const int8_t* after
    cdef int outcome
    gp0 = min(gp0, MAX_GP - 1)
    gp1 = min(gp1, MAX_GP - 1)
    after = k.r.after[took0][took1][gp0][gp1]
    outcome = k.r.outcome[took0][took1][gp0][gp1]
    if outcome == 2:
        return DRAW_WORTH
    if outcome >= 0:
        return 1.0 if outcome == k.team else 0.0
    return 0.5 + STEP * (after[k.team] - after[k.team ^ 1])


cdef double after_(const Look* k, int extra, int victory, int last) noexcept nogil:
    cdef int p[2]
    p[k.team] = k.marriages[k.team] + extra + victory + last
    p[k.team ^ 1] = k.marriages[k.team ^ 1] + (1 - victory) + (1 - last)
    return standing(k, 1, 1, p[0], p[1])


cdef double expect(const Look* k, int extra, double p_victory, int aims) noexcept nogil:
    cdef double value = 0.0, pv, pl
    cdef int victory
    for victory in range(2):
        pv = p_victory if victory else 1.0 - p_victory
        pl = LAST_ODDS[aims][victory]
        value += pv * (pl * after_(k, extra, victory, 1) + (1 - pl) * after_(k, extra, victory, 0))
    return value


cdef double value_of(const Look* k, int extra, int more, int aims, double victory) noexcept nogil:
    cdef double value = expect(k, extra + more, victory, aims)
    if more:
        value = LATER * value + (1.0 - LATER) * expect(k, extra, victory, aims)
    return value


cdef double best_aims(const Look* k, const double* victory, int extra, int later, int* aims,
                      int* more) noexcept nogil:
    cdef double best = -1.0, value
    cdef int a, m
    aims[0] = 0
    more[0] = 0
    for a in range(4):
        for m in range(later, -1, -1):
            value = value_of(k, extra, m, a, victory[AIMS[a][0]])
            if value > best + 1e-12:
                best = value
                aims[0] = a
                more[0] = m
    return best


cdef double plan(const Look* k, int extra, int later, double* points) noexcept nogil:
    """outlook.plan: the expected standing, and in points what a card point is worth."""
    cdef int aims, more, s_aims, s_more, made
    cdef double value = best_aims(k, k.victory, extra, later, &aims, &more), steady, stake
    best_aims(k, k.prior, extra, later, &s_aims, &s_more)
    steady = value_of(k, extra, s_more, s_aims, k.victory[AIMS[s_aims][0]])
    if value < steady + MARGIN:
        value, aims, more = steady, s_aims, s_more
    points[0] = 0.0
    if not k.settled:
        made = extra + more
        stake = after_(k, made, 1, AIMS[aims][1]) - after_(k, made, 0, AIMS[aims][1])
        points[0] = stake / STEP * k.density[AIMS[aims][0]] * GAME_POINT
    return value


# -- the hidden hands: knowledge.infer and odds.Odds ------------------------------------------

cdef struct Know:
    int me, partner, team
    uint64_t hand, unseen
    uint64_t possible[4]
    uint64_t known[4]
    int sizes[4]
    double density[4]
    int npairs                  # pair constraints left after settling (knowledge.PairConstraint)
    uint8_t pair_seat[MAX_EVENTS * 4]
    uint64_t pair_cards[MAX_EVENTS * 4]
    uint8_t pair_counts[MAX_EVENTS * 4]   # bit k: the seat holds k of the cards
    int trump, number, leading, led, winning, winner
    int rest[3]
    int nrest
    double average
    double power[NCARDS]
    uint64_t powered


cdef void pair_then(Know* k, uint64_t* absent, uint64_t* present, const int8_t* who,
                    const uint8_t* when, int seat, uint64_t pair, int counts,
                    int time) noexcept nogil:
    """inference._Proof._pair_then: before play number ``time`` ``seat`` held a number in
    ``counts`` (bits) of ``pair``'s cards; what that says of the pair's unplayed cards."""
    cdef int held_then = 0, size, left = 0, n, card
    cdef uint64_t m = pair
    while m:
        card = ctz64(m)
        if who[card] >= 0:
            pair &= ~((<uint64_t>1) << card)
            held_then += who[card] == seat and when[card] >= time
        m &= m - 1
    size = popcount64(pair)
    for n in range(3):
        if counts >> n & 1 and 0 <= n - held_then <= size:
            left |= 1 << (n - held_then)
    if left == 1:
        absent[seat] |= pair
    elif left == 1 << size:
        present[seat] |= pair
    elif popcount64(left) <= size:
        k.pair_seat[k.npairs] = seat
        k.pair_cards[k.npairs] = pair
        k.pair_counts[k.npairs] = left
        k.npairs += 1


cdef void proofs(Know* k, const Core* c, const Rules* r, uint64_t* absent,
                 uint64_t* present) noexcept nogil:
    """inference.constraints: what every play (RULES.md 7.3) and every declaration, question
    and answer proves of the hands, as cards absent and present and pair constraints."""
    cdef Tiers tiers
    cdef int8_t who[NCARDS]
    cdef uint8_t when[NCARDS]
    cdef int i, t, s, o, n, led, win, trump, pos, declared = 0, locked = 0, partner, time
    cdef uint64_t pair
    cdef const Ev* e
    for i in range(NCARDS):
        who[i] = -1
    n = 4 * c.ntricks + c.trick_len
    for i in range(n):
        t = i >> 2
        pos = i & 3
        s = ((c.leaders[t] if t < c.ntricks else c.leader) + pos) & 3
        who[c.plays[i]] = s
        when[c.plays[i]] = i
        trump = -1  # the trumps during the trick: the first marriage made before it
        for o in range(c.nevents):
            if c.events[o].yes and c.events[o].after_trick < t + 1:
                trump = c.events[o].suit
                break
        led = c.plays[4 * t] if pos else -1
        win = led
        for o in range(1, pos):
            if beats(c.plays[4 * t + o], win, trump):
                win = c.plays[4 * t + o]
        play_tiers(led, win, trump, t == 0, c.first_trick_ace, c.must_overtrump, c.must_trump,
                   &tiers)
        absent[s] |= shown_absent(&tiers, c.plays[i])
    for i in range(c.nevents):
        e = &c.events[i]
        partner = (e.seat + 2) & 3
        time = 4 * e.after_trick
        if e.how == H_DECLARE:
            present[e.seat] |= marriage_bits(e.suit)
        elif e.how == H_ASK_WHOLE:
            if e.yes:
                present[partner] |= marriage_bits(e.suit)
            else:
                # Partner held no K+Q it could have named (4.2b): none of these suits'.
                o = eligible_suits(DECK, partner, declared, locked)
                for s in range(4):
                    if o >> s & 1:
                        pair_then(k, absent, present, who, when, partner, marriage_bits(s), 3,
                                  time)
            locked |= 1 << e.seat
        else:
            pair = marriage_bits(e.suit)
            # Asking needs exactly one of the two; "yes": partner had the other, "no": not.
            pair_then(k, absent, present, who, when, e.seat, pair, 2, time)
            if e.yes:
                for s in range(4):
                    if s != e.seat and s != partner:
                        absent[s] |= pair
            else:
                absent[partner] |= pair
            locked |= (1 << e.seat) | (1 << partner)
        if e.yes:
            declared |= 1 << e.suit
    if r.club_ace_leads:
        present[c.forehand] |= (<uint64_t>1) << 35  # the ace of clubs leads the first deal


cdef bint settle_pairs(Know* k) noexcept nogil:
    """knowledge._Inference._settle_pair for each pair constraint; whether any changed."""
    cdef int i, n = 0, seat, free_n, left, cnt, x
    cdef uint64_t inside, free
    cdef bint changed = False
    for i in range(k.npairs):
        seat = k.pair_seat[i]
        inside = k.known[seat] & k.pair_cards[i]
        free = k.pair_cards[i] & k.possible[seat] & ~inside
        free_n = popcount64(free)
        left = 0
        for cnt in range(3):
            x = cnt - popcount64(inside)
            if k.pair_counts[i] >> cnt & 1 and 0 <= x <= free_n:
                left |= 1 << x
        if left == 1:
            k.possible[seat] &= ~free
        elif left == 1 << free_n:
            k.known[seat] |= free
        elif popcount64(left) < free_n + 1:
            changed |= free != k.pair_cards[i] or left != k.pair_counts[i]
            k.pair_seat[n] = seat
            k.pair_cards[n] = free
            k.pair_counts[n] = left
            n += 1
            continue
        changed = True
    k.npairs = n
    return changed


cdef void know_init(Know* k, const Core* c, int me, const Rules* r) noexcept nogil:
    """knowledge.infer: what ``me`` knows now, its hand and the public record's proofs settled
    together with the hand sizes."""
    cdef uint64_t played = 0, absent[4], present[4], elsewhere_known, elsewhere_possible
    cdef uint64_t before[8]
    cdef int i, s, o, n, changed
    for s in range(4):
        absent[s] = present[s] = 0
    k.npairs = 0
    proofs(k, c, r, absent, present)
    for i in range(4 * c.ntricks + c.trick_len):
        played |= (<uint64_t>1) << c.plays[i]
    # the observer's own pairs say nothing it does not know
    n = 0
    for i in range(k.npairs):
        if k.pair_seat[i] != me:
            k.pair_seat[n] = k.pair_seat[i]
            k.pair_cards[n] = k.pair_cards[i] & ~played
            k.pair_counts[n] = k.pair_counts[i]
            n += 1
    k.npairs = n
    k.me = me
    k.partner = (me + 2) & 3
    k.team = me & 1
    k.hand = c.hand[me]
    k.unseen = DECK & ~played & ~k.hand
    for s in range(4):
        k.sizes[s] = popcount64(c.hand[s])
        if s == me:
            k.possible[s] = k.known[s] = k.hand
        else:
            k.possible[s] = k.unseen & ~(absent[s] & ~played)
            k.known[s] = (present[s] & ~played) & k.unseen
    changed = 1
    while changed:
        for s in range(4):
            before[s] = k.possible[s]
            before[4 + s] = k.known[s]
        for s in range(4):
            if s == me:
                continue
            elsewhere_known = elsewhere_possible = 0
            for o in range(4):
                if o != s:
                    elsewhere_known |= k.known[o]
                    elsewhere_possible |= k.possible[o]
            k.possible[s] &= ~elsewhere_known
            k.known[s] |= k.possible[s] & ~elsewhere_possible
            if popcount64(k.possible[s]) <= k.sizes[s]:
                k.known[s] = k.possible[s]
            elif popcount64(k.known[s]) >= k.sizes[s]:
                k.possible[s] = k.known[s]
        changed = settle_pairs(k)
        for s in range(4):
            changed |= before[s] != k.possible[s] or before[4 + s] != k.known[s]
    for s in range(4):
        k.density[s] = ((k.sizes[s] - popcount64(k.known[s]))
                        / <double>max(1, popcount64(k.possible[s] & ~k.known[s])))
    k.trump = c.trump
    k.number = c.ntricks + 1
    k.leading = c.trick_len == 0
    k.led = k.winning = -1
    k.winner = me
    if c.trick_len:
        k.led = c.trick[0] // 9
        k.winning = c.win_card
        k.winner = (c.leader + c.win_pos) & 3
    k.nrest = 3 - c.trick_len
    for i in range(k.nrest):
        k.rest[i] = (me + 1 + i) & 3
    n = popcount64(k.unseen)
    k.average = mask_points(k.unseen) / <double>n if n else 0.0
    k.powered = 0


cdef double average_of(const Know* k, int seat) noexcept nogil:
    cdef int n = popcount64(k.possible[seat])
    return mask_points(k.possible[seat]) / <double>n if n else 0.0


cdef double p_none(const Know* k, int seat, uint64_t mask) noexcept nogil:
    cdef uint64_t free
    cdef int m, n, h, i
    cdef double p = 1.0
    if mask & k.known[seat]:
        return 0.0
    free = k.possible[seat] & ~k.known[seat]
    m = popcount64(mask & free)
    if m == 0:
        return 1.0
    n = popcount64(free)
    h = k.sizes[seat] - popcount64(k.known[seat])
    if n - m < h:
        return 0.0
    for i in range(h):
        p *= (n - m - i) / <double>(n - i)
    return p


cdef double p_holds(const Know* k, int seat, int card) noexcept nogil:
    cdef uint64_t bit = (<uint64_t>1) << card
    cdef double total = 0.0
    cdef int s
    if bit & k.known[seat]:
        return 1.0
    if not (bit & k.possible[seat]) or not (bit & k.unseen):
        return 0.0
    for s in range(4):
        if s != k.me and bit & k.possible[s]:
            total += k.density[s]
    return k.density[seat] / total if total else 0.0


cdef double p_none_of(const Know* k, const int* seats, int n, uint64_t mask) noexcept nogil:
    cdef double p = 1.0, held
    cdef int i
    mask &= k.unseen
    while mask:
        held = 0.0
        for i in range(n):
            held += p_holds(k, seats[i], ctz64(mask))
        p *= max(0.0, 1.0 - held)
        mask &= mask - 1
    return p


cdef double p_safe(const Know* k, const int* seats, int n, int winning, int led) noexcept nogil:
    cdef double p
    cdef int i
    if winning // 9 == led:
        p = p_none_of(k, seats, n, above(winning))
        if k.trump >= 0 and led != k.trump:
            for i in range(n):
                p *= 1.0 - p_none(k, seats[i], suit_mask(led)) * (
                    1.0 - p_none(k, seats[i], suit_mask(k.trump)))
        return p
    p = 1.0
    for i in range(n):
        p *= 1.0 - p_none(k, seats[i], suit_mask(led)) * (1.0 - p_none(k, seats[i], above(winning)))
    return p


cdef void odds(const Know* k, int card, double* team, double* mine) noexcept nogil:
    cdef int led, winning, winner, i, n = 0, at = -1
    cdef int theirs[3]
    if k.leading:
        led, winning, winner = card // 9, card, k.me
    elif beats(card, k.winning, k.trump):
        led, winning, winner = k.led, card, k.me
    else:
        led, winning, winner = k.led, k.winning, k.winner
    for i in range(k.nrest):
        if (k.rest[i] & 1) != k.team:
            theirs[n] = k.rest[i]
            n += 1
        elif k.rest[i] == k.partner:
            at = i
    if (winner & 1) == k.team:
        team[0] = p_safe(k, theirs, n, winning, led)
        if at > 0:
            # An opponent may beat it, and partner beat the opponent in turn.
            team[0] += (1.0 - team[0]) * 0.5 * (1.0 - p_safe(k, &k.partner, 1, winning, led))
    elif at >= 0:
        team[0] = ((1.0 - p_safe(k, &k.partner, 1, winning, led))
                   * p_safe(k, &k.rest[at + 1], k.nrest - at - 1, winning, led))
    else:
        team[0] = 0.0
    mine[0] = p_safe(k, k.rest, k.nrest, winning, led) if winner == k.me else 0.0


cdef double power(Know* k, int card) noexcept nogil:
    cdef int opponents[2]
    cdef double p
    if k.powered >> card & 1:
        return k.power[card]
    opponents[0] = (k.me + 1) & 3
    opponents[1] = (k.me + 3) & 3
    p = p_safe(k, opponents, 2, card, card // 9)
    if k.trump < 0:
        p *= DECAY[0]
    elif card // 9 == k.trump:
        p += (1.0 - p) * 0.4
    else:
        p *= DECAY[1]
    k.power[card] = p
    k.powered |= (<uint64_t>1) << card
    return p


