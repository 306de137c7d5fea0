# Included from _heuristic.pyx: the heuristic player's outlook on the match, what the points it
# may make in this deal are worth to its team's standing, and what it plays for in the rest of
# the deal.
#
# What a deal's points do to the match is the engine's (match_score_after, read into Rules:
# Porvoo, overshoot, the target, a draw); the standing is 1 when the team has won, 0 when the
# other team has, DRAW_WORTH for a draw, and otherwise leans by STEP per game point of distance
# between the scores. Near the target the player aims at exactly the game points it needs (more
# send the team back to overshoot_to), leaving the victory point or the last trick to the other
# team when it must. Aims are whether to play for the victory point and for the last trick, or
# to leave them; a plan says what a card point is then worth.

from libc.math cimport erf, exp, sqrt

#: Card points one game point is worth when the match is far from the target.
cdef double GAME_POINT = 40.0
#: How much nearer a team's chance of the match is per game point nearer the target.
cdef double STEP = 0.04
#: What a drawn match is worth (a win is 1, a loss 0): the player plays to win.
cdef double DRAW_WORTH = 0.25
#: The chance that a marriage held now is made later in the deal.
cdef double LATER = 0.6
#: How much better in standing new aims must be before they replace those of the deal's start.
cdef double MARGIN = 0.03
#: Share of the card points still out the team takes when shedding them and when playing for
#: them, and the spread of its card points at the end per square root of the points still out.
cdef double SHARE[2]
SHARE[:] = [0.455, 0.59]
cdef double SPREAD = 2.1
#: The aims (play for the victory point, play for the last trick), and by aims the chances of
#: the last trick without and with the victory point, as measured in play against the random
#: player: the two go together, since both come from taking tricks.
cdef int AIMS[4][2]
AIMS[0][:] = [1, 1]
AIMS[1][:] = [1, 0]
AIMS[2][:] = [0, 1]
AIMS[3][:] = [0, 0]
cdef double LAST_ODDS[4][2]
LAST_ODDS[0][:] = [0.52, 0.86]
LAST_ODDS[1][:] = [0.33, 0.66]
LAST_ODDS[2][:] = [0.34, 0.41]
LAST_ODDS[3][:] = [0.19, 0.43]


cdef struct Look:
    int team
    const Rules* r
    int marriages[2]
    int settled         # whether the victory point is decided: taken, or out of reach
    # By aim (0 shed card points, 1 take them): the chance of the victory point now and at the
    # start of the deal, and what one card point more adds to it now.
    double victory[2]
    double density[2]
    double prior[2]


cdef inline double normal(double x) noexcept nogil:
    return 0.5 * (1.0 + erf(x / sqrt(2.0)))


cdef inline double bell(double x) noexcept nogil:
    return exp(-0.5 * x * x) / sqrt(2.0 * 3.141592653589793)


cdef void victory_odds(int ours, int left, double* chance, double* rise) noexcept nogil:
    """The chances of the victory point (more than half the card points) when shedding them
    and when taking them, and their rise per card point, with ``ours`` taken and ``left``
    still out."""
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
    """The standing after a deal in which the teams took a trick or not and made these game
    points (match_score_after, from the table of ``k.r``)."""
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
    """The standing when the team makes ``extra`` marriage points and the victory point and
    the last trick go as given (each to the other team when not to this one), both teams
    taking a trick."""
    cdef int p[2]
    p[k.team] = k.marriages[k.team] + extra + victory + last
    p[k.team ^ 1] = k.marriages[k.team ^ 1] + (1 - victory) + (1 - last)
    return standing(k, 1, 1, p[0], p[1])


cdef double expect(const Look* k, int extra, double p_victory, int aims) noexcept nogil:
    """The expected standing, the last trick going by the odds of ``aims``."""
    cdef double value = 0.0, pv, pl
    cdef int victory
    for victory in range(2):
        pv = p_victory if victory else 1.0 - p_victory
        pl = LAST_ODDS[aims][victory]
        value += pv * (pl * after_(k, extra, victory, 1) + (1 - pl) * after_(k, extra, victory, 0))
    return value


cdef double value_of(const Look* k, int extra, int more, int aims, double victory) noexcept nogil:
    """The expected standing with ``extra`` marriage points made and ``more`` to make."""
    cdef double value = expect(k, extra + more, victory, aims)
    if more:
        # Marriages still to make need a window, and may be broken first.
        value = LATER * value + (1.0 - LATER) * expect(k, extra, victory, aims)
    return value


cdef double best_aims(const Look* k, const double* victory, int extra, int later, int* aims,
                      int* more) noexcept nogil:
    """The best value, its aims and the marriage points to add."""
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
    """The expected standing of the best plan after making ``extra`` marriage points now, with
    up to ``later`` more the team may still choose to make in this deal; in ``points`` what one
    card point is then worth, in card points far from the target (0 once the victory point is
    settled, negative when it would overshoot).

    The aims chosen from the odds at the start of the deal stand unless the card points taken
    since make others clearly better: both partners then aim alike, and the aims do not sway
    with every trick."""
    cdef int aims, more, s_aims, s_more, made
    cdef double value = best_aims(k, k.victory, extra, later, &aims, &more), steady, stake
    best_aims(k, k.prior, extra, later, &s_aims, &s_more)
    steady = value_of(k, extra, s_more, s_aims, k.victory[AIMS[s_aims][0]])
    if value < steady + MARGIN:
        value, aims, more = steady, s_aims, s_more
    points[0] = 0.0
    if not k.settled:
        # A card point counts as much as it moves the chance of the victory point, and that as
        # much as the victory point is worth when the last trick goes as aimed.
        made = extra + more
        stake = after_(k, made, 1, AIMS[aims][1]) - after_(k, made, 0, AIMS[aims][1])
        points[0] = stake / STEP * k.density[AIMS[aims][0]] * GAME_POINT
    return value
