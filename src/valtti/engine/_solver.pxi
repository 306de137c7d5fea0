# Included from _deal.pyx: the double-dummy solver (valtti.engine.solver documents it).
#
# Alpha-beta over the deal's own C state: a node's child is a memcpy of its Core and one
# apply_action, every move comes from legal_mask_of, so the rules live in _deal.pxd alone.
# The value of a finished deal is a lookup in a table of 256 floats indexed by (NS game points,
# EW game points, NS took a trick, EW took a trick); valtti.engine.solver.DealValue fills it.
# The search itself runs on the rank of a value among the table's distinct values (a small
# int): only their order matters to alpha-beta, and a small rank keeps a stored entry small.
#
# Transposition table: 2**bits entries of 16 bytes, in buckets of four that share one cache
# line (the search is bound by memory, not by arithmetic), keyed by a 64-bit hash of
# everything that decides the rest of the deal (hands, the current trick, who leads and moves,
# phase, trumps, declared suits, locks, the marriage points and the took-a-trick flags, and the
# card points as far as the victory point is still open). Each entry keeps a lower and an
# upper bound of the exact value and the best move found. A generation number invalidates all
# entries at once.
#
# Cut-offs: the game points and took-a-trick flags each team can still reach bound the value
# (the min and max of the table over that box, precomputed per table), so a node whose box
# lies outside the window, or whose box is one value, returns at once.

from libc.stdlib cimport free
from libc.string cimport memmove
from libc.math cimport INFINITY
from libc.stdint cimport int16_t, uint16_t

cdef extern from "stdlib.h" nogil:
    int posix_memalign(void** memptr, size_t alignment, size_t size)

cdef enum:
    MAX_PLY = 64
    TOOK_SETS = 3          # a team's took-a-trick flag: 0 no, 1 yes, 2 either
    GP_RANGES = 64         # lo * 8 + hi, game points 0..7
    BUCKET = 4             # entries a key may take, one cache line of 64 bytes

# The 0-point cards (6, 7, 8, 9) of every suit.
cdef uint64_t LOW_RANKS = 0xFULL | (0xFULL << 9) | (0xFULL << 18) | (0xFULL << 27)

cdef struct TTEntry:
    uint64_t key
    int16_t lo               # bounds of the exact value, as ranks of the table's values
    int16_t hi
    uint16_t gen
    int8_t move
    uint8_t depth            # cards still in the hands: the larger, the costlier to find again

cdef inline uint64_t mix64(uint64_t h, uint64_t w) noexcept nogil:
    h ^= w
    h *= 0x9E3779B97F4A7C15ULL
    return h ^ (h >> 29)


cdef inline int table_index(int gp_ns, int gp_ew, int took_ns, int took_ew) noexcept nogil:
    return ((gp_ns * 8 + gp_ew) * 2 + took_ns) * 2 + took_ew


cdef inline uint64_t trick_cards(const Core* c) noexcept nogil:
    cdef uint64_t m = 0
    cdef int i
    for i in range(c.trick_len):
        m |= (<uint64_t>1) << c.trick[i]
    return m


cdef inline int remaining_points(const Core* c) noexcept nogil:
    """Card points not yet in a completed trick."""
    return DECK_POINTS - c.card_points[0] - c.card_points[1]


cdef uint8_t PEXT4[16][16]   # PEXT4[live][held]: held's bits among live's, packed low
cdef int _pext4_init():
    cdef int live, held, bit, out, k
    for live in range(16):
        for held in range(16):
            out = 0
            k = 0
            for bit in range(4):
                if live >> bit & 1:
                    if held >> bit & 1:
                        out |= 1 << k
                    k += 1
            PEXT4[live][held] = out
    return 0
_pext4_init()


cdef inline uint64_t low_ranks(uint64_t cards, uint64_t alive) noexcept nogil:
    """cards with each suit's 0-point cards (6 to 9) renumbered from the bottom among the live
    ones: two positions that differ only in which of them are gone play alike (they score
    nothing, and among the live cards only their order counts)."""
    cdef uint64_t out = cards & ~LOW_RANKS
    cdef int s
    for s in range(4):
        out |= (<uint64_t>PEXT4[(alive >> (9 * s)) & 15][(cards >> (9 * s)) & 15]) << (9 * s)
    return out


cdef inline int low_rank_card(int card, uint64_t alive) noexcept nogil:
    """One card as low_ranks numbers it."""
    cdef int s = card // 9, rank = card % 9
    if rank > 3:
        return card
    return s * 9 + popcount64((alive >> (9 * s)) & ((1 << rank) - 1) & 15)


cdef uint64_t position_key(const Core* c) noexcept nogil:
    cdef uint64_t h = 0x243F6A8885A308D3ULL, w
    cdef uint64_t alive = c.hand[0] | c.hand[1] | c.hand[2] | c.hand[3] | trick_cards(c)
    cdef int i, rem, cp, ns_open, ew_open
    for i in range(4):
        h = mix64(h, low_ranks(c.hand[i], alive) + (<uint64_t>i << 40))
    w = c.trick_len
    for i in range(c.trick_len):
        w = (w << 6) | low_rank_card(c.trick[i], alive)
    h = mix64(h, w)
    # The card points count only while a victory point is open; once both are decided, only
    # how they were decided.
    rem = remaining_points(c)
    cp = c.card_points[0]
    ns_open = not victory_point(cp) and victory_point(cp + rem)
    ew_open = not victory_point(c.card_points[1]) and victory_point(c.card_points[1] + rem)
    if not ns_open and not ew_open:
        cp = (DECK_POINTS + 1 + victory_point(c.card_points[0]) * 2
              + victory_point(c.card_points[1]))
    w = (<uint64_t>c.leader | (<uint64_t>c.to_move << 2) | (<uint64_t>c.phase << 4)
         | (<uint64_t>(c.trump + 1) << 6) | (<uint64_t>(c.trump_team + 1) << 9)
         | (<uint64_t>c.declared << 11) | (<uint64_t>c.locked << 15)
         | (<uint64_t>c.asker << 19) | (<uint64_t>c.marriage_points[0] << 21)
         | (<uint64_t>c.marriage_points[1] << 24) | (<uint64_t>(c.tricks_won[0] > 0) << 27)
         | (<uint64_t>(c.tricks_won[1] > 0) << 28) | (<uint64_t>cp << 29)
         | (<uint64_t>c.whole_ask << 37) | (<uint64_t>c.must_overtrump << 39)
         | (<uint64_t>c.must_trump << 40)
         | (<uint64_t>(c.first_trick_ace and c.ntricks == 0) << 41))
    h = mix64(h, w)
    h ^= h >> 31
    h *= 0xBF58476D1CE4E5B9ULL
    return h ^ (h >> 32)


cdef inline int hand_cards(const Core* c) noexcept nogil:
    return popcount64(c.hand[0] | c.hand[1] | c.hand[2] | c.hand[3])


cdef inline int windows_left(const Core* c) noexcept nogil:
    """How many more marriages can still be made at most: one per declaration window to come
    (a pending answer is one)."""
    cdef int w = 8 - c.ntricks
    if c.phase == P_DECLARATION or c.phase == P_ANSWER:
        w += 1
    return w if w > 0 else 0


cdef inline int team_marriages_possible(const Core* c, int team) noexcept nogil:
    """Undeclared suits whose K and Q both are still in team's hands."""
    cdef uint64_t h = c.hand[team] | c.hand[team + 2]
    cdef int s, n = 0
    for s in range(4):
        if not (c.declared >> s & 1) and (h & marriage_bits(s)) == marriage_bits(s):
            n += 1
    return n


cdef class _DoubleDummy:
    """The C solver behind ``valtti.engine.solver.Solver`` (values for NS, action numbers)."""

    cdef TTEntry* tt
    cdef uint64_t mask
    cdef uint16_t gen
    cdef double table[256]
    cdef int16_t table_rank[256]   # the rank of each table entry among vals
    cdef int16_t box_lo[TOOK_SETS * TOOK_SETS * GP_RANGES * GP_RANGES]  # ranks, as table_rank
    cdef int16_t box_hi[TOOK_SETS * TOOK_SETS * GP_RANGES * GP_RANGES]
    cdef double vals[256]    # the table's distinct values, ascending
    cdef int nvals
    cdef bint has_table
    cdef Core stack[MAX_PLY + 1]
    cdef public long long nodes
    cdef long long limit     # the nodes a search may visit before it gives up; 0: no limit
    cdef bint aborted        # the last search gave up at the limit: its values mean nothing

    def __cinit__(self, int table_bits=20):
        cdef void* tt = NULL
        if not 4 <= table_bits <= 30:
            raise ValueError(f"table_bits must be 4..30, not {table_bits}")
        if posix_memalign(&tt, 64, sizeof(TTEntry) << table_bits) != 0:
            raise MemoryError()
        self.tt = <TTEntry*>tt
        self.mask = ((<uint64_t>1) << table_bits) - 1
        self.gen = 0
        self.nvals = 0
        self.has_table = False
        self.nodes = 0
        self.limit = 0
        self.aborted = False
        self._wipe()

    def __dealloc__(self):
        free(self.tt)

    cdef void _wipe(self) noexcept nogil:
        cdef uint64_t i
        for i in range(self.mask + 1):
            self.tt[i].gen = 0
        self.gen = 1

    def clear(self):
        """Forget every stored position."""
        self.gen += 1
        if self.gen == 0:
            self._wipe()

    def set_table(self, table):
        """The value of each class of finished deal (256 floats in table_index order); the
        stored positions are forgotten when it differs from the last one."""
        cdef int i
        cdef bint same = self.has_table
        if len(table) != 256:
            raise ValueError("a value table has 256 entries")
        for i in range(256):
            if not self.has_table or self.table[i] != <double>table[i]:
                same = False
            self.table[i] = table[i]
        if not same:
            self._distinct()
            for i in range(256):
                self.table_rank[i] = self.rank_of(self.table[i])
            self._boxes()
            self.clear()
        self.has_table = True

    cdef void _boxes(self) noexcept nogil:
        """The min and max of the table over every box of game-point ranges and flag sets."""
        cdef int tn, te, lo0, hi0, lo1, hi1, a, b, g0, g1, k
        cdef double mn, mx, v
        for tn in range(TOOK_SETS):
            for te in range(TOOK_SETS):
                for lo0 in range(8):
                    for hi0 in range(lo0, 8):
                        for lo1 in range(8):
                            for hi1 in range(lo1, 8):
                                mn = INFINITY
                                mx = -INFINITY
                                for g0 in range(lo0, hi0 + 1):
                                    for g1 in range(lo1, hi1 + 1):
                                        for a in range(2):
                                            if tn != 2 and a != tn:
                                                continue
                                            for b in range(2):
                                                if te != 2 and b != te:
                                                    continue
                                                v = self.table[table_index(g0, g1, a, b)]
                                                if v < mn:
                                                    mn = v
                                                if v > mx:
                                                    mx = v
                                k = ((tn * TOOK_SETS + te) * GP_RANGES + lo0 * 8 + hi0) \
                                    * GP_RANGES + lo1 * 8 + hi1
                                self.box_lo[k] = self.rank_of(mn)
                                self.box_hi[k] = self.rank_of(mx)

    cdef void _distinct(self) noexcept nogil:
        cdef int i, j, n = 0
        cdef double v
        for i in range(256):
            v = self.table[i]
            j = n
            while j > 0 and self.vals[j - 1] > v:
                j -= 1
            if j > 0 and self.vals[j - 1] == v:
                continue
            memmove(&self.vals[j + 1], &self.vals[j], (n - j) * sizeof(double))
            self.vals[j] = v
            n += 1
        self.nvals = n

    cdef inline int rank_of(self, double v) noexcept nogil:
        """The index of v among the distinct values (v is one of them)."""
        cdef int lo = 0, hi = self.nvals - 1, mid
        while lo < hi:
            mid = (lo + hi) // 2
            if self.vals[mid] < v:
                lo = mid + 1
            else:
                hi = mid
        return lo

    cdef int exact(self, int ply, int guess) noexcept nogil:
        """The rank of the exact value of stack[ply] by null-window searches between
        neighbouring ranks, within the box of outcomes still reachable: first around ``guess``
        (a rank, or -1), then by halving what is left."""
        cdef Core* c = &self.stack[ply]
        cdef int k, ilo, ihi, mid, v
        if c.phase == P_OVER:
            self.nodes += 1
            return self.leaf(c)
        k = self.box(c)
        ilo = self.box_lo[k]
        ihi = self.box_hi[k]
        while ilo < ihi:
            if ilo == guess:
                mid = guess + 1
            elif ilo < guess <= ihi:
                mid = guess
            else:
                mid = (ilo + ihi + 1) // 2
            v = self.search(ply, mid - 1, mid)
            if self.aborted:
                return v
            if v >= mid:
                ilo = v
            else:
                ihi = v
                if ihi < guess:
                    guess = -1
        return ilo

    cdef inline int leaf(self, const Core* c) noexcept nogil:
        return self.table_rank[table_index(team_game_points(c, 0), team_game_points(c, 1),
                                           c.tricks_won[0] > 0, c.tricks_won[1] > 0)]

    cdef inline int box(self, const Core* c) noexcept nogil:
        """The index of the box of outcomes still reachable from c."""
        cdef int t, m, rem = remaining_points(c), w = windows_left(c)
        cdef int lo[2]
        cdef int hi[2]
        cdef int took[2]
        for t in range(2):
            took[t] = 1 if c.tricks_won[t] > 0 else 2
            lo[t] = game_points(c.marriage_points[t], 0, c.card_points[t])
            m = team_marriages_possible(c, t)
            if m > w:
                m = w
            # Each marriage still possible scores a little trump, the first one trumps while
            # there are none (RULES.md 4.4); then the last trick and every card point still out.
            m *= LITTLE_TRUMP_POINTS
            if m > 0 and c.trump < 0:
                m += TRUMP_MARRIAGE_POINTS - LITTLE_TRUMP_POINTS
            hi[t] = game_points(c.marriage_points[t] + m, 1, c.card_points[t] + rem)
            if hi[t] > 7:
                hi[t] = 7
        return ((took[0] * TOOK_SETS + took[1]) * GP_RANGES + lo[0] * 8 + hi[0]) * GP_RANGES \
            + lo[1] * 8 + hi[1]

    cdef int order(self, const Core* c, int tt_move, int* moves) noexcept nogil:
        """The moves to search at c, best guess first; equivalent cards once."""
        cdef uint64_t m = legal_mask_of(c), alive, hand = c.hand[c.to_move], nxt
        cdef uint64_t partner_hand = c.hand[(c.to_move + 2) & 3]
        cdef int n = 0, a, i, s, rank, win_team, team = c.to_move & 1
        cdef int score[NACTIONS]
        cdef bint beat
        alive = c.hand[0] | c.hand[1] | c.hand[2] | c.hand[3] | trick_cards(c)
        win_team = ((c.leader + c.win_pos) & 1) if c.trick_len else -1
        while m:
            a = ctz64(m)
            m &= m - 1
            if a < NCARDS:
                rank = a % 9
                if rank <= 3:
                    # A 0-point card with the next live card of its suit in the same hand and
                    # also worth 0 is the same move as that card.
                    nxt = alive & above(a)
                    if nxt and (hand >> ctz64(nxt) & 1) and ctz64(nxt) % 9 <= 3:
                        continue
                if c.trick_len == 0:
                    s = RANK_POINTS[rank] + rank
                else:
                    beat = beats(a, c.win_card, c.trump)
                    if win_team == team and not beat:
                        s = 40 + RANK_POINTS[rank]
                    elif beat:
                        s = 60 - rank + RANK_POINTS[c.win_card % 9]
                    else:
                        s = 20 - RANK_POINTS[rank] - rank
            elif a < A_ASK_WHOLE:
                s = 200
            elif a == A_ASK_WHOLE:
                # A question answered "no" only locks the asker's own team before the same
                # lead as leading at once, which is legal too: never better, so not searched.
                if eligible_marriages(c, (c.to_move + 2) & 3) == 0:
                    continue
                s = 150
            elif a < A_ANSWER:
                if not (partner_hand & marriage_bits(a - A_ASK_HALF) & ~hand):
                    continue
                s = 140
            else:
                s = 200
            if a == tt_move:
                s = 1000
            # insertion by score, stable for equal scores
            i = n
            while i > 0 and score[i - 1] < s:
                score[i] = score[i - 1]
                moves[i] = moves[i - 1]
                i -= 1
            score[i] = s
            moves[i] = a
            n += 1
        return n

    cdef inline TTEntry* probe(self, uint64_t key) noexcept nogil:
        """The entry of key in its bucket, or NULL."""
        cdef TTEntry* e = &self.tt[key & self.mask & ~(<uint64_t>(BUCKET - 1))]
        cdef int i
        for i in range(BUCKET):
            if e[i].key == key and e[i].gen == self.gen:
                return &e[i]
        return NULL

    cdef inline TTEntry* slot(self, uint64_t key) noexcept nogil:
        """Where to store key: its own entry, else a stale one, else the shallowest."""
        cdef TTEntry* e = &self.tt[key & self.mask & ~(<uint64_t>(BUCKET - 1))]
        cdef TTEntry* low = e
        cdef int i
        for i in range(BUCKET):
            if e[i].key == key and e[i].gen == self.gen:
                return &e[i]
        for i in range(BUCKET):
            if e[i].gen != self.gen:
                return &e[i]
            if e[i].depth < low.depth:
                low = &e[i]
        return low

    cdef int search(self, int ply, int alpha, int beta) noexcept nogil:
        """Fail-soft alpha-beta on ranks: the exact rank when it lies strictly inside
        (alpha, beta), else a bound on the far side of the window."""
        cdef Core* c = &self.stack[ply]
        cdef Core* child = &self.stack[ply + 1]
        cdef uint64_t key
        cdef TTEntry* e
        cdef int k, n, i, lo, hi, v, a0, b0, best, tt_move = -1, best_move = -1
        cdef int moves[NACTIONS]
        cdef bint maxing
        self.nodes += 1
        if self.limit and self.nodes > self.limit:
            self.aborted = True
            return alpha
        if c.phase == P_OVER:
            return self.leaf(c)
        k = self.box(c)
        lo = self.box_lo[k]
        hi = self.box_hi[k]
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        key = position_key(c)
        e = self.probe(key)
        if e != NULL:
            if e.lo >= beta or e.lo == e.hi:
                return e.lo
            if e.hi <= alpha:
                return e.hi
            if e.lo > alpha:
                alpha = e.lo
            if e.hi < beta:
                beta = e.hi
            tt_move = e.move
        a0 = alpha
        b0 = beta
        maxing = (c.to_move & 1) == 0
        n = self.order(c, tt_move, moves)
        best = -1 if maxing else self.nvals
        for i in range(n):
            memcpy(child, c, sizeof(Core))
            apply_action(child, moves[i])
            v = self.search(ply + 1, alpha, beta)
            if self.aborted:
                return v  # nothing proved here: store nothing
            if maxing:
                if v > best:
                    best = v
                    best_move = moves[i]
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best = v
                    best_move = moves[i]
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
        # Store what this search proved, narrowed by what the entry knew of the same position.
        e = self.slot(key)
        if not (e.gen == self.gen and e.key == key):
            e.key = key
            e.gen = self.gen
            e.depth = hand_cards(c)
            e.lo = 0
            e.hi = self.nvals - 1
        if best <= a0:
            if best < e.hi:
                e.hi = best
        elif best >= b0:
            if best > e.lo:
                e.lo = best
        else:
            e.lo = best
            e.hi = best
        e.move = best_move
        return best

    cdef int load(self, Deal deal) except -1:
        if not self.has_table:
            raise ValueError("no value table set")
        if deal.c.phase == P_OVER:
            raise ValueError("the deal is over: there is nothing to solve")
        memcpy(&self.stack[0], &deal.c, sizeof(Core))
        self.limit = 0
        self.aborted = False
        return 0

    # ``not None`` on each typed deal, as the tensor functions' (_tensors.pxi).
    def value(self, Deal deal not None):
        """The exact value for NS of the position."""
        cdef int v
        self.load(deal)
        self.nodes = 0
        with nogil:
            v = self.exact(0, -1)
        return self.vals[v]

    def solve(self, Deal deal not None, long long max_nodes=0):
        """(action number, exact value for NS) of each legal action, in action-number order;
        None when the positions searched pass ``max_nodes`` (0: no limit)."""
        cdef uint64_t m
        cdef int a, v
        cdef int guess = -1
        cdef list out = []
        self.load(deal)
        self.nodes = 0
        self.limit = max_nodes
        m = legal_mask_of(&self.stack[0])
        while m:
            a = ctz64(m)
            m &= m - 1
            memcpy(&self.stack[1], &self.stack[0], sizeof(Core))
            apply_action(&self.stack[1], a)
            with nogil:
                v = self.exact(1, guess)
            if self.aborted:
                self.limit = 0
                return None
            guess = v
            out.append((a, self.vals[v]))
        self.limit = 0
        return out

    def line(self, Deal deal not None):
        """A principal variation (action numbers) to the end of the deal."""
        cdef list out = []
        cdef Core pos
        cdef uint64_t m
        cdef int a, best_a, v, best, guess = -1
        cdef long long nodes = 0
        cdef bint maxing
        self.load(deal)
        memcpy(&pos, &self.stack[0], sizeof(Core))
        while pos.phase != P_OVER:
            maxing = (pos.to_move & 1) == 0
            m = legal_mask_of(&pos)
            best_a = -1
            best = 0
            while m:
                a = ctz64(m)
                m &= m - 1
                memcpy(&self.stack[1], &pos, sizeof(Core))
                apply_action(&self.stack[1], a)
                self.nodes = 0
                with nogil:
                    v = self.exact(1, guess)
                guess = v
                nodes += self.nodes
                if best_a < 0 or (v > best if maxing else v < best):
                    best = v
                    best_a = a
            apply_action(&pos, best_a)
            out.append(best_a)
        self.nodes = nodes
        return out
