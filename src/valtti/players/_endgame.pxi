# Included from _heuristic.pyx: the heuristic player's count of the last tricks, the rest of the
# deal played out as a club player counts cards.
#
# Over sets of hidden hands that agree with everything seen (every possible set in the last two
# tricks, a few drawn by _sampler.pxi before), each card the player may play is followed to the
# end of the deal, the player taking its best card later and the others any legal card alike
# (no declarations), and each finished deal is weighed by the standing it leaves the team in
# (_outlook.pxi). That plays the last trick (keep a winner for it, or a loser when it is not
# wanted) and the victory point exactly.

#: The sets of hidden hands drawn, by trick (in the last two tricks: every possible set).
cdef int WORLDS[10]
WORLDS[:] = [0, 0, 0, 0, 0, 12, 12, 6, 0, 0]

cdef enum:
    MAX_WORLDS = 256

# One sampler, rebuilt for each count that draws hands (never two at once).
cdef Sampler SAMPLER


cdef double leaf(const Core* c, const Look* look) noexcept nogil:
    """The standing after a finished deal, scored as the engine scores it."""
    return standing(look, c.tricks_won[0] > 0, c.tricks_won[1] > 0, team_game_points(c, 0),
                    team_game_points(c, 1))


cdef double expected(Core* c, int me, const Look* look, int exact, uint64_t* rng) noexcept nogil:
    """The expected standing after ``c``: me's best card, the others' average (from trick
    ``exact`` on; before it one card drawn: the tree would be too big). ``c`` is the caller's
    scratch copy: a move without a choice is made in it, and only a choice copies."""
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
            k = rng_below(rng, n)
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


cdef void count_out(const Know* k, const Look* look, const Core* c, uint64_t plays,
                    uint64_t* rng, double* totals) noexcept nogil:
    """For each card of ``plays`` (in card order) the expected standing after the deal when it
    is played now (from trick 5 on), over the hidden hands that agree with what ``k`` knows:
    all of them in the last two tricks, a few drawn before."""
    cdef uint64_t worlds[4 * MAX_WORLDS]
    cdef uint64_t hands[4], free, p
    cdef Core world, after
    # Every card the others may play is followed from trick 7 when counting from there, from
    # trick 8 when counting from earlier.
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
            totals[i] += expected(&after, k.me, look, exact, rng)
            i += 1
            p &= p - 1
    for s in range(i):
        totals[s] /= max(1, n)


