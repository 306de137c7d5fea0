# Included from _deal.pyx: what a seat's view is in C, and what the public record proves about
# the hidden hands (RULES.md 7.3) there. ``prove`` is the one implementation of the proofs:
# engine.inference gives it to Python (``constraints``), the heuristic player reads it in C.

from libc.string cimport memset


cdef void pair_then(Proof* p, const int8_t* who, const uint8_t* when, int seat, uint64_t pair,
                    int counts, int time) noexcept nogil:
    """Before play number ``time`` ``seat`` held a number in ``counts`` (bits) of ``pair``'s
    cards: what that says of the pair's cards still unplayed (nothing when always met)."""
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
        p.absent[seat] |= pair
    elif left == 1 << size:
        p.present[seat] |= pair
    elif popcount64(left) <= size:
        p.pair_seat[p.npairs] = seat
        p.pair_cards[p.npairs] = pair
        p.pair_counts[p.npairs] = left
        p.npairs += 1


cdef void prove(const Core* c, bint club_ace_leads, Proof* p) noexcept nogil:
    """What the public record of ``c`` proves about the hands (RULES.md 7.3): a play what the
    tiers of 3.2 that decide legality say (a void, no trumps, no card that beats, the
    first-trick ace); ``declare`` and a "yes" to ask-whole the K+Q of the suit; a "no" to
    ask-whole that an unlocked partner held no undeclared K+Q; ask-half that the asker held
    exactly one of the pair, its "yes" that the others hold neither, its "no" that the partner
    holds neither; with ``club_ace_leads`` (a match's first deal, first_forehand=
    club_ace_holder) that the forehand held the ace of clubs.

    A fact about a hand at some moment is one about its cards still unplayed, since cards only
    leave a hand: ``absent`` and ``present`` may hold played cards, the pairs do not. Reads
    only the public record of ``c`` (its plays, leaders, events, variant and forehand), never
    a hand, so every seat's view of one position proves the same."""
    cdef Tiers tiers
    cdef int8_t who[NCARDS]
    cdef uint8_t when[NCARDS]
    cdef int i, t, s, o, n, led, win, trump, pos, declared = 0, locked = 0, partner, time
    cdef uint64_t pair
    cdef const Ev* e
    memset(p, 0, sizeof(Proof))
    for i in range(NCARDS):
        who[i] = -1
    n = 4 * c.ntricks + c.trick_len
    for i in range(n):
        t = i >> 2
        pos = i & 3
        s = ((c.leaders[t] if t < c.ntricks else c.leader) + pos) & 3
        who[c.plays[i]] = s
        when[c.plays[i]] = i
        trump = -1  # the trumps during the trick: the first marriage made before it (4.4)
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
        p.absent[s] |= shown_absent(&tiers, c.plays[i])
    for i in range(c.nevents):
        e = &c.events[i]
        partner = (e.seat + 2) & 3
        time = 4 * e.after_trick
        if e.how == H_DECLARE:
            p.present[e.seat] |= marriage_bits(e.suit)
        elif e.how == H_ASK_WHOLE:
            if e.yes:
                p.present[partner] |= marriage_bits(e.suit)
            else:
                # Partner held no K+Q it could have named (4.2b): none of these suits'.
                o = eligible_suits(DECK, partner, declared, locked)
                for s in range(4):
                    if o >> s & 1:
                        pair_then(p, who, when, partner, marriage_bits(s), 3, time)
            locked |= 1 << e.seat
        else:
            pair = marriage_bits(e.suit)
            # Asking needs exactly one of the two; "yes": partner had the other, "no": not.
            pair_then(p, who, when, e.seat, pair, 2, time)
            if e.yes:
                for s in range(4):
                    if s != e.seat and s != partner:
                        p.absent[s] |= pair
            else:
                p.absent[partner] |= pair
            locked |= (1 << e.seat) | (1 << partner)
        if e.yes:
            declared |= 1 << e.suit
    if club_ace_leads:
        p.present[c.forehand] |= (<uint64_t>1) << 35


cdef int core_of_observation(object obs, Core* c) except -1:
    """``c``: the position an ``Observation`` shows, its seat's hand and the public record as
    they are. Each hidden hand holds as many cards as the observed one, the unseen cards dealt
    out in card order: stand-ins, of which only their number may be read. ``ValueError`` where
    the observation contradicts itself."""
    cdef int i, t, s, n = 0, card, nplays
    cdef uint64_t played = 0, played_by[4], unseen, bit
    memset(c, 0, sizeof(Core))
    variant = obs.variant
    if not isinstance(variant, Variant):
        raise TypeError(f"variant must be a Variant, not {type(variant).__name__}")
    c.whole_ask = WHOLE_ASK.index(variant.whole_ask_after_trump)
    c.must_overtrump = variant.must_overtrump
    c.must_trump = variant.must_trump_if_cannot_overtrump
    c.first_trick_ace = variant.first_trick_ace == "on"
    c.answer_steps = bool(obs.answer_steps)
    c.dealer = seat_number(obs.dealer)
    c.forehand = seat_number(obs.forehand)
    c.trump = suit_number(obs.trump)
    c.trump_team = -1 if obs.trump_team is None else TEAMS.index(obs.trump_team)
    c.phase = PHASES.index(obs.phase)
    c.to_move = 0 if obs.current_player is None else seat_number(obs.current_player)
    c.asker = 0 if obs.asker is None else seat_number(obs.asker)
    result = obs.result
    for i in range(2):
        c.tricks_won[i] = result.tricks[i]
        c.card_points[i] = result.card_points[i]
        c.marriage_points[i] = result.marriage_points[i]
    c.last_team = -1 if result.last is None else TEAMS.index(result.last)
    for i in range(4):
        played_by[i] = 0
    tricks = obs.tricks
    current = obs.current_trick
    if len(tricks) > 9 or (current is not None and (len(tricks) == 9 or len(current.cards) > 3)):
        raise ValueError("the observation has more than nine tricks")
    for t in range(len(tricks) + (current is not None)):
        trick = tricks[t] if t < len(tricks) else current
        if t < len(tricks):
            if len(trick.cards) != 4 or trick.winner is None:
                raise ValueError(f"trick {t + 1} is complete: four cards and a winner")
            c.leaders[t] = seat_number(trick.leader)
            c.winners[t] = seat_number(trick.winner)
        else:
            c.leader = seat_number(trick.leader)
            c.trick_len = len(trick.cards)
        for i in range(len(trick.cards)):
            card = card_number(trick.cards[i])
            bit = (<uint64_t>1) << card
            if played & bit:
                raise ValueError(f"{CARDS[card]} is played twice")
            played |= bit
            s = ((c.leaders[t] if t < len(tricks) else c.leader) + i) & 3
            played_by[s] |= bit
            c.plays[n] = card
            n += 1
            if t == len(tricks):
                c.trick[i] = card
                if i == 0 or beats(card, c.win_card, c.trump):
                    c.win_card = card
                    c.win_pos = i
    c.ntricks = len(tricks)
    if current is None and c.ntricks:
        c.leader = c.winners[c.ntricks - 1]
    events = obs.events
    if len(events) > MAX_EVENTS:
        raise ValueError(f"a deal has at most {MAX_EVENTS} declaration events")
    for i in range(len(events)):
        e = events[i]
        c.events[i].after_trick = e.after_trick
        c.events[i].seat = seat_number(e.seat)
        c.events[i].how = HOW.index(e.how)
        c.events[i].suit = suit_number(e.suit)
        c.events[i].yes = bool(e.yes)
        c.events[i].points = e.points
        if e.yes:
            c.declared |= 1 << suit_of(e.suit)
    c.nevents = len(events)
    for seat in obs.locked:
        c.locked |= 1 << seat_number(seat)
    history = obs.history
    if len(history) > MAX_HISTORY:
        raise ValueError(f"a deal has at most {MAX_HISTORY} actions")
    for i in range(len(history)):
        if action_number(history[i]) < 0:
            raise ValueError(f"not an action: {history[i]!r}")
        c.actions[i] = action_number(history[i])
    c.nactions = len(history)
    s = seat_number(obs.seat)
    c.hand[s] = to_mask(obs.hand)
    unseen = DECK & ~played & ~c.hand[s]
    sizes = obs.hand_sizes
    if (c.hand[s] & played or popcount64(c.hand[s]) != sizes[s]
            or sum(sizes) - sizes[s] != popcount64(unseen)):
        raise ValueError(
            f"the observation contradicts itself: hand sizes {tuple(sizes)}, "
            f"{popcount64(c.hand[s])} cards in {SEATS[s]}'s hand, {popcount64(unseen)} unseen")
    for i in range(4):
        if i != s:
            for t in range(sizes[i]):
                c.hand[i] |= unseen & -unseen
                unseen &= unseen - 1
        c.initial[i] = c.hand[i] | played_by[i]
    return 0


def proof_of(observation):
    """What the public record at ``observation`` proves (``prove``): the cards each seat
    cannot hold now and those it must (N E S W masks, unplayed cards only), and the pair
    constraints as (seat number, the pair's unplayed cards, the counts allowed as bits)."""
    cdef Core c
    cdef Proof p
    cdef uint64_t played = 0
    cdef int i
    core_of_observation(observation, &c)
    prove(&c, observation.deal_number == 1
          and observation.variant.first_forehand == "club_ace_holder", &p)
    for i in range(4 * c.ntricks + c.trick_len):
        played |= (<uint64_t>1) << c.plays[i]
    return (
        tuple([p.absent[i] & ~played for i in range(4)]),
        tuple([p.present[i] & ~played for i in range(4)]),
        [(p.pair_seat[i], p.pair_cards[i], p.pair_counts[i]) for i in range(p.npairs)],
    )
