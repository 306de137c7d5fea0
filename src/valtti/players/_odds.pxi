# Included from _heuristic.pyx: what the heuristic player reads of the hidden hands, from its
# own hand and the public record alone. What the record proves is the engine's (``prove``);
# here it is settled with the player's hand, with itself and with the hand sizes (as
# players/knowledge.py settles it for the other players), and the unknown cards of each seat
# are spread evenly over what it may hold: the chance that a seat holds a card or none of a
# suit, that a card takes the trick now, and that it takes one later in the deal. The rules
# make a player beat when able (RULES.md 3.2), so holding a card that beats is taken as
# beating.

#: How much of a card's chance to take a trick now lasts to later in the deal, without trumps
#: (they may come) and with them for the other suits (more voids to ruff into).
cdef double DECAY[2]
DECAY[:] = [0.9, 0.85]


cdef struct Know:
    int me, partner, team
    uint64_t hand, unseen
    uint64_t possible[4]
    uint64_t known[4]
    int sizes[4]
    double density[4]
    int npairs                  # pair constraints left after settling (as Proof's)
    uint8_t pair_seat[MAX_PAIRS]
    uint64_t pair_cards[MAX_PAIRS]
    uint8_t pair_counts[MAX_PAIRS]      # bit k: the seat holds k of the cards
    int trump, number, leading, led, winning, winner
    int rest[3]
    int nrest
    double average
    double power[NCARDS]
    uint64_t powered


cdef bint settle_pairs(Know* k) noexcept nogil:
    """What each pair constraint settles (a card held or not), the rest kept while it still
    says more than the cards do; whether any changed."""
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
    """What ``me`` knows now: its hand and what the public record proves (the engine's
    ``prove``), settled together with the hand sizes until nothing is new: cards known
    elsewhere are not here, cards possible nowhere else are, a seat with as many possible
    cards as it holds holds them all."""
    cdef Proof proof
    cdef uint64_t played = 0, elsewhere_known, elsewhere_possible
    cdef uint64_t before[8]
    cdef int i, s, o, n, changed
    prove(c, r.club_ace_leads, &proof)
    for i in range(4 * c.ntricks + c.trick_len):
        played |= (<uint64_t>1) << c.plays[i]
    # the observer's own pairs say nothing it does not know
    n = 0
    for i in range(proof.npairs):
        if proof.pair_seat[i] != me:
            k.pair_seat[n] = proof.pair_seat[i]
            k.pair_cards[n] = proof.pair_cards[i]
            k.pair_counts[n] = proof.pair_counts[i]
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
            k.possible[s] = k.unseen & ~proof.absent[s]
            k.known[s] = proof.present[s] & k.unseen
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
    """The card points of a card ``seat`` may hold, on average."""
    cdef int n = popcount64(k.possible[seat])
    return mask_points(k.possible[seat]) / <double>n if n else 0.0


cdef double p_none(const Know* k, int seat, uint64_t mask) noexcept nogil:
    """The chance that ``seat`` holds none of ``mask`` (its unknown cards drawn at random)."""
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
    """The chance that hidden ``seat`` holds ``card``: its share of where the card may be, by
    how many unknown cards each seat that may hold it still has."""
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
    """The chance that none of the ``n`` ``seats`` holds a card of ``mask``."""
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
    """The chance that none of the ``n`` ``seats`` takes over a trick led in ``led`` that
    ``winning`` wins: holding a card that beats is taken as beating (RULES.md 3.2)."""
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
    """The chances that the team, and that this player, take the trick if ``card`` is played."""
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
    """The chance that ``card`` takes a trick later in the deal (kept once reckoned)."""
    cdef int opponents[2]
    cdef double p
    if k.powered >> card & 1:
        return k.power[card]
    opponents[0] = (k.me + 1) & 3
    opponents[1] = (k.me + 3) & 3
    p = p_safe(k, opponents, 2, card, card // 9)
    if k.trump < 0:
        p *= DECAY[0]  # trumps may come
    elif card // 9 == k.trump:
        p += (1.0 - p) * 0.4  # a trump also takes tricks by ruffing
    else:
        p *= DECAY[1]  # more voids to ruff into as the deal goes on
    k.power[card] = p
    k.powered |= (<uint64_t>1) << card
    return p


