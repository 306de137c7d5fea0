# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The heuristic player in C, shared with the research layer's learner tables (they seat it)."""

from libc.stdint cimport int8_t, uint64_t

from valtti.engine._deal cimport Core

cdef enum:
    MAX_GP = 16     # game points a team may make in a deal, in the tables of Rules: 0 to 15

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

cdef int rules_of(object variant, object score, bint first_deal, Rules* r) except -1
cdef int heuristic_choose(const Core* c, const Rules* r, uint64_t* rng) noexcept nogil
