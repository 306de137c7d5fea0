# Included from _heuristic.pyx: hidden hands drawn uniformly from every deal that agrees with
# what the heuristic player knows (Know), for its count of the last tricks (_endgame.pxi); as
# players/sampler.py draws them for the other players, for the last five tricks only (each
# hidden seat needs at most five cards).
#
# The free cards are split into groups: the K and Q tied by pair constraints as blocks of their
# allowed placements, the other free cards by the seats that may hold them. The worlds are
# counted group by group (each group's ways to split times the worlds of the groups after it),
# one is drawn by its number below the count, and each loose group's cards are then dealt by a
# partial shuffle.

cdef enum:
    SG_GROUPS = 16
    SG_OPTIONS = 64
    SG_PLACES = 128
    SG_NEED = 6                 # a hidden seat needs 0 to 5 cards


cdef struct SGroup:
    int size, block, noptions, ncards
    int split[SG_OPTIONS][3]    # cards to each hidden seat, in seat order
    int64_t ways[SG_OPTIONS]
    int place_from[SG_OPTIONS + 1]
    uint64_t places[SG_PLACES][4]   # a block's placements, option by option: cards by seat
    uint64_t cards[NCARDS]      # a loose group's cards, as bits, lowest first
    uint64_t mask
    int ncut[SG_OPTIONS]        # per option: (seat, count) drawn in order, and who takes the rest
    int cut_seat[SG_OPTIONS][3]
    int cut_n[SG_OPTIONS][3]
    int drawn[SG_OPTIONS]
    int last[SG_OPTIONS]


cdef struct Sampler:
    int ngroups
    int hidden[3]
    int start[3]
    int left[SG_GROUPS + 1]
    uint64_t base[4]
    int64_t count
    int64_t memo[SG_GROUPS + 1][SG_NEED * SG_NEED * SG_NEED]
    SGroup groups[SG_GROUPS]


cdef inline int may_hold(const Know* k, const Sampler* s, int card) noexcept nogil:
    """The hidden seats that may hold ``card``, as a bit mask over seats."""
    cdef int i, out = 0
    for i in range(3):
        if k.possible[s.hidden[i]] >> card & 1:
            out |= 1 << s.hidden[i]
    return out


cdef bint ties_hold(const Know* k, int ties, const uint64_t* hands) noexcept nogil:
    cdef int i
    for i in range(k.npairs):
        if ties >> i & 1 and not (
                k.pair_counts[i] >> popcount64(hands[k.pair_seat[i]] & k.pair_cards[i]) & 1):
            return False
    return True


cdef bint add_block(const Know* k, Sampler* s, uint64_t mask, int ties) noexcept nogil:
    """A block: every placement of ``mask``'s cards meeting the pair constraints ``ties``
    (bits over ``k``'s pairs), listed by split (how many go to each hidden seat)."""
    cdef SGroup* g = &s.groups[s.ngroups]
    cdef int cards[NCARDS], owners[NCARDS], choice[NCARDS], n = 0, i, o, seat, total = 1
    cdef int found, sp[3], holders
    cdef uint64_t placed[4], m = mask
    cdef int nplaces = 0
    cdef uint64_t tmp[SG_PLACES][4]
    cdef int tmp_option[SG_PLACES]
    while m:
        cards[n] = ctz64(m)
        n += 1
        m &= m - 1
    for i in range(n):
        holders = may_hold(k, s, cards[i])
        owners[i] = popcount64(holders)
        total *= owners[i]
    g.size = n
    g.block = 1
    g.noptions = 0
    for i in range(n):
        choice[i] = 0
    # every owner of every card, the last card's changing fastest
    for o in range(total):
        for i in range(4):
            placed[i] = 0
        for i in range(n):
            holders = may_hold(k, s, cards[i])
            seat = 0
            found = choice[i]
            while True:
                if holders >> seat & 1:
                    if found == 0:
                        break
                    found -= 1
                seat += 1
            placed[seat] |= (<uint64_t>1) << cards[i]
        for i in range(4):
            placed[i] |= s.base[i]
        if ties_hold(k, ties, placed):
            for i in range(3):
                sp[i] = popcount64(placed[s.hidden[i]] & ~s.base[s.hidden[i]])
            found = -1
            for i in range(g.noptions):
                if g.split[i][0] == sp[0] and g.split[i][1] == sp[1] and g.split[i][2] == sp[2]:
                    found = i
            if found < 0:
                if g.noptions == SG_OPTIONS:
                    return False
                found = g.noptions
                g.split[found][0], g.split[found][1], g.split[found][2] = sp[0], sp[1], sp[2]
                g.noptions += 1
            if nplaces == SG_PLACES:
                return False
            for i in range(4):
                tmp[nplaces][i] = placed[i] & ~s.base[i]
            tmp_option[nplaces] = found
            nplaces += 1
        i = n - 1
        while i >= 0:
            choice[i] += 1
            if choice[i] < owners[i]:
                break
            choice[i] = 0
            i -= 1
    # the placements listed option by option, each option's in the order found
    n = 0
    for o in range(g.noptions):
        g.place_from[o] = n
        for i in range(nplaces):
            if tmp_option[i] == o:
                memcpy(g.places[n], tmp[i], 4 * sizeof(uint64_t))
                n += 1
        g.ways[o] = n - g.place_from[o]
    g.place_from[g.noptions] = n
    s.ngroups += 1
    return True


cdef int64_t factorial(int n) noexcept nogil:
    cdef int64_t f = 1
    cdef int i
    for i in range(2, n + 1):
        f *= i
    return f


cdef bint add_loose(Sampler* s, uint64_t cards, int seats, const int* need) noexcept nogil:
    """A loose group: ``cards`` that the hidden ``seats`` (a mask) may hold alike, with every
    way to split them among those seats and, for each, who takes how many (drawn in order)
    and who the rest."""
    cdef SGroup* g = &s.groups[s.ngroups]
    cdef int who[3], cap[3], counts[3], nseats = 0, i, a, b, c, n = popcount64(cards)
    cdef int order[3], t, most
    cdef uint64_t m = cards
    for i in range(4):
        if seats >> i & 1:
            who[nseats] = i
            for a in range(3):
                if s.hidden[a] == i:
                    cap[nseats] = need[a]
            nseats += 1
    g.size = n
    g.block = 0
    g.mask = cards
    g.ncards = 0
    while m:
        g.cards[g.ncards] = m & -m
        g.ncards += 1
        m &= m - 1
    g.noptions = 0
    for i in range(nseats, 3):
        cap[i] = 0
    # the counts of the seats in order, the first changing slowest
    for a in range(cap[0] + 1):
        for b in range(cap[1] + 1):
            c = n - a - b
            if not 0 <= c <= cap[2]:
                continue
            if g.noptions == SG_OPTIONS:
                return False
            counts[0], counts[1], counts[2] = a, b, c
            g.split[g.noptions][0] = g.split[g.noptions][1] = g.split[g.noptions][2] = 0
            g.ways[g.noptions] = factorial(n)
            for i in range(nseats):
                for t in range(3):
                    if s.hidden[t] == who[i]:
                        g.split[g.noptions][t] = counts[i]
                g.ways[g.noptions] //= factorial(counts[i])
            # sorted by (count, seat): the last takes what the others leave
            for i in range(nseats):
                order[i] = i
            for i in range(nseats):
                for t in range(nseats - 1 - i):
                    if (4 * counts[order[t]] + who[order[t]]
                            > 4 * counts[order[t + 1]] + who[order[t + 1]]):
                        order[t], order[t + 1] = order[t + 1], order[t]
            g.ncut[g.noptions] = 0
            g.drawn[g.noptions] = 0
            g.last[g.noptions] = 0
            if nseats:
                most = counts[order[nseats - 1]]
                g.last[g.noptions] = who[order[nseats - 1]]
                g.ncut[g.noptions] = nseats - 1
                for i in range(nseats - 1):
                    g.cut_seat[g.noptions][i] = who[order[i]]
                    g.cut_n[g.noptions][i] = counts[order[i]]
                g.drawn[g.noptions] = n - most
            g.noptions += 1
    s.ngroups += 1
    return True


cdef inline int need_key(const int* need) noexcept nogil:
    return (need[0] * SG_NEED + need[1]) * SG_NEED + need[2]


cdef int64_t sampler_ways(Sampler* s, int level, const int* need) noexcept nogil:
    """The worlds completing the hands from group ``level`` on, ``need`` cards still to give
    each hidden seat (kept in ``s.memo``)."""
    cdef int64_t total = 0, after
    cdef int rest[3], o, key
    cdef SGroup* g
    if level == s.ngroups:
        return 1 if need[0] == need[1] == need[2] == 0 else 0
    key = need_key(need)
    if s.memo[level][key] >= 0:
        return s.memo[level][key]
    if need[0] + need[1] + need[2] == s.left[level]:
        g = &s.groups[level]
        for o in range(g.noptions):
            rest[0] = need[0] - g.split[o][0]
            rest[1] = need[1] - g.split[o][1]
            rest[2] = need[2] - g.split[o][2]
            after = sampler_ways(s, level + 1, rest) if min(rest[0], min(rest[1], rest[2])) >= 0 else 0
            total += g.ways[o] * after
    s.memo[level][key] = total
    return total


cdef bint sampler_init(Sampler* s, const Know* k) noexcept nogil:
    """``s`` for what ``k`` knows: False where the sampler cannot take the position (too many
    cards or options for its arrays) or no world agrees."""
    cdef uint64_t free, bmask[MAX_PAIRS], m, loose
    cdef int bties[MAX_PAIRS], nblocks = 0, i, b, n, seats, key_seats[NCARDS], nkeys = 0
    cdef uint64_t key_cards[NCARDS]
    cdef int need[3]
    cdef uint64_t mask, joined
    cdef int ties
    n = 0
    for i in range(4):
        if i != k.me:
            s.hidden[n] = i
            n += 1
        s.base[i] = k.known[i]
    free = k.unseen & ~(s.base[0] | s.base[1] | s.base[2] | s.base[3])
    for i in range(3):
        need[i] = k.sizes[s.hidden[i]] - popcount64(k.known[s.hidden[i]])
        if not 0 <= need[i] < SG_NEED:
            return False
        s.start[i] = need[i]
    # the free cards pair constraints tie together, in blocks sharing no card
    for i in range(k.npairs):
        mask = k.pair_cards[i] & free
        ties = 1 << i
        joined = 0
        n = 0
        for b in range(nblocks):
            if bmask[b] & mask:
                mask |= bmask[b]
                ties |= bties[b]
            else:
                bmask[n] = bmask[b]
                bties[n] = bties[b]
                n += 1
        bmask[n] = mask
        bties[n] = ties
        nblocks = n + 1
    s.ngroups = 0
    loose = free
    for b in range(nblocks):
        if s.ngroups == SG_GROUPS or not add_block(k, s, bmask[b], bties[b]):
            return False
        loose &= ~bmask[b]
    # the other free cards grouped by the seats that may hold each, in the order first met
    m = loose
    while m:
        seats = may_hold(k, s, ctz64(m))
        for i in range(nkeys):
            if key_seats[i] == seats:
                key_cards[i] |= m & -m
                break
        else:
            key_seats[nkeys] = seats
            key_cards[nkeys] = m & -m
            nkeys += 1
        m &= m - 1
    for i in range(nkeys):
        if s.ngroups == SG_GROUPS or not add_loose(s, key_cards[i], key_seats[i], need):
            return False
    s.left[s.ngroups] = 0
    for i in range(s.ngroups - 1, -1, -1):
        s.left[i] = s.left[i + 1] + s.groups[i].size
    for i in range(s.ngroups + 1):
        for b in range(SG_NEED * SG_NEED * SG_NEED):
            s.memo[i][b] = -1
    s.count = sampler_ways(s, 0, need)
    return s.count > 0


cdef void sampler_draw(Sampler* s, uint64_t* rng, uint64_t* hands) noexcept nogil:
    """One world drawn uniformly: the hands now, N E S W."""
    cdef int64_t r = rng_below(rng, s.count), start, after, index
    cdef int need[3], rest[3], level, o, chosen, i, j, at, n
    cdef SGroup* g
    cdef uint64_t pool[NCARDS], picked[NCARDS], part, left
    memcpy(hands, s.base, 4 * sizeof(uint64_t))
    for i in range(3):
        need[i] = s.start[i]
    for level in range(s.ngroups):
        g = &s.groups[level]
        start = 0
        chosen = -1
        after = 0
        for o in range(g.noptions):
            rest[0] = need[0] - g.split[o][0]
            rest[1] = need[1] - g.split[o][1]
            rest[2] = need[2] - g.split[o][2]
            after = sampler_ways(s, level + 1, rest) if min(rest[0], min(rest[1], rest[2])) >= 0 else 0
            if after:
                if r < start + g.ways[o] * after:
                    chosen = o
                    break
                start += g.ways[o] * after
        if chosen < 0:
            return  # cannot be: r is below the count
        index = (r - start) % g.ways[chosen]
        r = (r - start) // g.ways[chosen]
        for i in range(3):
            need[i] -= g.split[chosen][i]
        if g.block:
            for i in range(4):
                hands[i] |= g.places[g.place_from[chosen] + index][i]
            continue
        left = g.mask
        n = g.ncards
        if g.drawn[chosen]:
            # the cards dealt to all but the last seat: a partial shuffle of the group's
            memcpy(pool, g.cards, n * sizeof(uint64_t))
            for i in range(g.drawn[chosen]):
                j = rng_below(rng, n - i)
                picked[i] = pool[j]
                pool[j] = pool[n - i - 1]
            at = 0
            for i in range(g.ncut[chosen]):
                part = 0
                for j in range(g.cut_n[chosen][i]):
                    part |= picked[at + j]
                hands[g.cut_seat[chosen][i]] |= part
                left ^= part
                at += g.cut_n[chosen][i]
        hands[g.last[chosen]] |= left
