# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Many learner tables stepped in one call, in C, for the research vector env
(``research.batched``).

Each table is what ``research.gymnasium.LearnerTable`` is, in C: a deal of the research
episodes (answer_steps on), the learner's seat, and the three other seats played by C players
(the random player, or the heuristic player's C) until the learner is to move. Every draw comes
from the table's own generator, the package's (the engine's ``rng_next``), seeded as a
``LearnerTable`` seeds its ``SplitMix``: from the same seed a table deals, seats and plays as
that table does, draw for draw.
"""

from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy

from valtti.engine._deal cimport (
    NACTIONS, N_OBS, OK, P_ANSWER, P_OVER, SUIT_BITS, Core, Deal, action_check, apply_action,
    ctz64, encode_observation, legal_mask_of, popcount64, replay_before_last, rng_below,
    rng_next, seat_of, shuffle_hands, team_game_points, variant_bits_of,
)
from valtti.players._heuristic cimport Rules, heuristic_choose, rules_of

from valtti.engine.variant import Variant

# Who plays a seat of a table.
cdef enum:
    K_LEARNER = 0
    K_RANDOM = 1
    K_HEURISTIC = 2

#: The players a batch of tables can seat, by name (``make_player``'s names: ``quick`` is
#: ``heuristic``'s other name).
BATCH_PLAYERS = {"random": K_RANDOM, "heuristic": K_HEURISTIC, "quick": K_HEURISTIC}


cdef struct Table:
    Core c
    uint64_t rng            # the table's generator
    uint64_t player[4]      # each C player's generator, seeded with 32 bits of the table's,
                            # as LearnerTable seeds it
    uint8_t seat            # the learner's
    uint8_t kind[4]         # who plays each seat (K_*)
    uint8_t waiting         # for the learner's action: dealt, and no episode ended since
    uint8_t marked          # named in the reset being checked


cdef class Tables:
    """``n`` learner tables of one kind, stepped in C: what ``valtti.research``'s
    ``LearnerTable`` does for one table, draw for draw, for deals (not matches) with the players
    of ``BATCH_PLAYERS`` in the other seats.

    ``opponents``: three names (left, partner, right of the learner); ``seat``: the learner's
    fixed seat (0-3) or ``None`` to draw it; ``variant`` a ``Variant`` or ``None``;
    ``illegal_reward`` the reward of an illegal action. Observations (float32,
    ``OBSERVATION_SIZE`` a row) and masks (uint8, ``NUM_ACTIONS`` a row) are written into the
    caller's arrays.
    """

    cdef Table* tables
    cdef int n, fixed_seat, target, variant_bits, club_ace_first
    cdef double illegal_reward
    cdef uint8_t kinds[3]
    cdef Core blank
    cdef Rules rules
    cdef object _variant

    def __cinit__(self):
        self.tables = NULL

    def __init__(self, int n, opponents, seat, variant, double illegal_reward):
        cdef int i
        cdef Deal d
        if n < 1:
            raise ValueError(f"a batch has 1 table or more, not {n}")
        if len(opponents) != 3:
            raise ValueError("opponents are three names (left, partner, right)")
        for i in range(3):
            if opponents[i] not in BATCH_PLAYERS:
                raise ValueError(f"no batched player {opponents[i]!r}: "
                                 f"one of {', '.join(BATCH_PLAYERS)}")
            self.kinds[i] = BATCH_PLAYERS[opponents[i]]
        self.fixed_seat = -1 if seat is None else seat_of(seat)
        self.illegal_reward = illegal_reward
        variant = Variant() if variant is None else variant
        d = Deal([SUIT_BITS << (9 * i) for i in range(4)], 0, variant, answer_steps=True)
        memcpy(&self.blank, &d.c, sizeof(Core))
        self._variant = variant
        rules_of(variant, (0, 0), True, &self.rules)  # a deal: its match's first
        self.target = variant.target
        self.variant_bits = variant_bits_of(variant)
        self.club_ace_first = variant.first_forehand == "club_ace_holder"
        self.tables = <Table*>calloc(n, sizeof(Table))
        if self.tables == NULL:
            raise MemoryError()
        self.n = n

    def __dealloc__(self):
        free(self.tables)

    def __len__(self):
        return self.n

    cdef void _deal(self, Table* t) noexcept nogil:
        """LearnerTable.reset after the seeding: the seat, the players' seeds, the first
        dealer, the cards, and the others' play until the learner is to move."""
        cdef uint64_t hands[4]
        cdef int i, dealer, forehand
        cdef Core* c = &t.c
        t.seat = rng_below(&t.rng, 4) if self.fixed_seat < 0 else self.fixed_seat
        t.kind[t.seat] = K_LEARNER
        for i in range(3):
            t.kind[(t.seat + 1 + i) & 3] = self.kinds[i]
            t.player[(t.seat + 1 + i) & 3] = rng_next(&t.rng) >> 32  # drawn for every seat
        dealer = rng_below(&t.rng, 4)
        shuffle_hands(rng_next(&t.rng), hands)
        forehand = (dealer + 1) & 3
        if self.club_ace_first:
            for i in range(4):
                if hands[i] >> 35 & 1:
                    forehand = i
        memcpy(c, &self.blank, sizeof(Core))
        for i in range(4):
            c.hand[i] = hands[i]
            c.initial[i] = hands[i]
        c.dealer = dealer
        c.forehand = forehand
        c.leader = forehand
        c.to_move = forehand
        self._others(t)
        t.waiting = 1

    cdef void _others(self, Table* t) noexcept nogil:
        """The other seats play until the learner is to move or the deal is over."""
        cdef Core* c = &t.c
        cdef uint64_t m
        cdef int k
        while c.phase != P_OVER and c.to_move != t.seat:
            if t.kind[c.to_move] == K_HEURISTIC:
                apply_action(c, heuristic_choose(c, &self.rules, &t.player[c.to_move]))
                continue
            m = legal_mask_of(c)
            k = rng_below(&t.rng, popcount64(m))
            while k:
                m &= m - 1
                k -= 1
            apply_action(c, ctz64(m))

    cdef void _write(self, Table* t, float* obs, uint8_t* mask) noexcept nogil:
        """The learner's observation (the match score 0:0) and legal actions."""
        cdef Core before
        cdef const Core* c = &t.c
        cdef uint64_t m = 0
        cdef int a
        if c.phase == P_ANSWER and c.to_move != t.seat:
            replay_before_last(c, &before)
            c = &before
        encode_observation(c, t.seat, self.target, 0, 0, self.variant_bits, obs)
        if t.c.phase != P_OVER and t.c.to_move == t.seat:
            m = legal_mask_of(&t.c)
        for a in range(NACTIONS):
            mask[a] = m >> a & 1

    def reset(self, const int64_t[::1] which, const uint64_t[::1] seeds, float[:, ::1] obs,
              uint8_t[:, ::1] masks):
        """Deal table ``which[k]`` afresh from ``seeds[k]`` (as ``SplitMix(seed)``), and write
        its observation and mask into row ``which[k]`` of ``obs`` and ``masks``."""
        cdef Py_ssize_t k, i
        self._check(obs, masks)
        if seeds.shape[0] != which.shape[0]:
            raise ValueError("one seed a table")
        for k in range(which.shape[0]):
            if not 0 <= which[k] < self.n:
                raise IndexError(f"no table {which[k]} of {self.n}")
        # distinct: tables seeded together must not be one
        for k in range(which.shape[0]):
            if self.tables[which[k]].marked:
                for i in range(k):
                    self.tables[which[i]].marked = 0
                raise ValueError(f"table {which[k]} twice")
            self.tables[which[k]].marked = 1
        for k in range(which.shape[0]):
            self.tables[which[k]].marked = 0
        # The GIL held: the heuristic player's sampler is shared.
        for k in range(which.shape[0]):
            i = which[k]
            self.tables[i].rng = seeds[k]
            self._deal(&self.tables[i])
            self._write(&self.tables[i], &obs[i, 0], &masks[i, 0])

    def step(self, const int64_t[::1] actions, float[:, ::1] obs, uint8_t[:, ::1] masks,
             double[::1] rewards, uint8_t[::1] over, uint8_t[::1] illegal, float[:, ::1] final):
        """Play each table's learner action, then its other seats until the learner is to move.

        Row i of ``obs``/``masks`` is then table i's; ``rewards[i]`` the learner team's game
        points minus the other's at a deal's end (``illegal_reward`` for an illegal action,
        which ends the episode and leaves the deal as it was), ``over[i]`` whether it ended,
        ``illegal[i]`` whether by an illegal action; a table that ended has its last observation
        in ``final[i]`` and waits to be reset. Returns how many ended."""
        cdef Py_ssize_t i
        cdef int ended = 0, a, team
        cdef Table* t
        self._check(obs, masks)
        if not (actions.shape[0] == rewards.shape[0] == over.shape[0] == illegal.shape[0]
                == final.shape[0] == self.n):
            raise ValueError(f"one action, reward, flag and row a table ({self.n})")
        for i in range(self.n):
            if not self.tables[i].waiting:
                raise RuntimeError(f"table {i} is not waiting for the learner: reset it")
        # The GIL held: the heuristic player's sampler is shared.
        for i in range(self.n):
            t = &self.tables[i]
            a = <int>actions[i] if 0 <= actions[i] < NACTIONS else -1
            rewards[i] = 0.0
            over[i] = illegal[i] = 0
            if a < 0 or action_check(&t.c, a) != OK:
                rewards[i] = self.illegal_reward
                over[i] = illegal[i] = 1
            else:
                apply_action(&t.c, a)
                self._others(t)
                if t.c.phase == P_OVER:
                    team = t.seat & 1
                    rewards[i] = (team_game_points(&t.c, team)
                                  - team_game_points(&t.c, team ^ 1))
                    over[i] = 1
            self._write(t, &obs[i, 0], &masks[i, 0])
            if over[i]:
                memcpy(&final[i, 0], &obs[i, 0], N_OBS * sizeof(float))
                t.waiting = 0
                ended += 1
        return ended

    cdef void _check(self, float[:, ::1] obs, uint8_t[:, ::1] masks) except *:
        if obs.shape[0] != self.n or obs.shape[1] != N_OBS:
            raise ValueError(f"observations are ({self.n}, {N_OBS}) float32")
        if masks.shape[0] != self.n or masks.shape[1] != NACTIONS:
            raise ValueError(f"masks are ({self.n}, {NACTIONS}) uint8")

    def seats(self):
        """The learner's seat at each table, as numbers 0-3."""
        return [self.tables[i].seat for i in range(self.n)]

    def deal(self, int i):
        """A copy of table ``i``'s deal."""
        cdef Deal d = Deal.__new__(Deal)
        if not 0 <= i < self.n:
            raise IndexError(f"no table {i} of {self.n}")
        memcpy(&d.c, &self.tables[i].c, sizeof(Core))
        d._variant = self._variant
        return d
