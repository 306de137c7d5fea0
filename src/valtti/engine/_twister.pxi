# Included from _deal.pyx: CPython's Mersenne Twister (random.Random) in C, seeded and drawn
# as CPython seeds and draws it (init_by_array, genrand_uint32, getrandbits, randrange), so that
# C code deals and chooses draw for draw as Python code given the same seed (the batched
# tables of _batch.pxi, the quick player's ties of _quick.pxi).

from libc.stdint cimport int64_t, uint32_t

cdef extern from *:
    int clz64 "__builtin_clzll"(unsigned long long) nogil

cdef enum:
    MT_N = 624
    MT_M = 397
    LANES = 4       # tables seeded together

cdef struct Twister:
    uint32_t mt[MT_N]
    int index


# init_genrand(19650218), where every init_by_array begins: computed once.
cdef uint32_t TW_START[MT_N]


cdef int tw_start_init() except -1:
    cdef int i
    TW_START[0] = 19650218U
    for i in range(1, MT_N):
        TW_START[i] = 1812433253U * (TW_START[i - 1] ^ (TW_START[i - 1] >> 30)) + i
    return 0
tw_start_init()


cdef void tw_seed(Twister** t, const uint64_t* seed, int lanes) noexcept nogil:
    """``random.Random(seed[q])`` into ``t[q]`` for ``lanes`` (1 to ``LANES``) seeds below
    2**64 of one key length (all below 2**32, or none): CPython's init_by_array with the seed's
    32-bit words, least significant first. Its chain of multiplications is long; the lanes'
    chains, in lockstep, overlap in the processor."""
    cdef uint32_t key[LANES][2]
    cdef uint32_t* mt[LANES]
    cdef int nkey = 2 if seed[0] >> 32 else 1, i = 1, j = 0, k, q
    for q in range(lanes):
        key[q][0] = <uint32_t>seed[q]
        key[q][1] = <uint32_t>(seed[q] >> 32)
        mt[q] = t[q].mt
        memcpy(mt[q], TW_START, sizeof(TW_START))
        t[q].index = MT_N
    for k in range(MT_N if MT_N > nkey else nkey, 0, -1):
        for q in range(lanes):
            mt[q][i] = ((mt[q][i] ^ ((mt[q][i - 1] ^ (mt[q][i - 1] >> 30)) * 1664525U))
                        + key[q][j] + j)
        i += 1
        j += 1
        if i >= MT_N:
            for q in range(lanes):
                mt[q][0] = mt[q][MT_N - 1]
            i = 1
        if j >= nkey:
            j = 0
    for k in range(MT_N - 1, 0, -1):
        for q in range(lanes):
            mt[q][i] = (mt[q][i] ^ ((mt[q][i - 1] ^ (mt[q][i - 1] >> 30)) * 1566083941U)) - i
        i += 1
        if i >= MT_N:
            for q in range(lanes):
                mt[q][0] = mt[q][MT_N - 1]
            i = 1
    for q in range(lanes):
        mt[q][0] = 0x80000000U


cdef uint32_t tw_next(Twister* t) noexcept nogil:
    """CPython's genrand_uint32 (``getrandbits(32)``), each word of the next block made when
    it is drawn: word k of a block depends on words k and k+1 of the last one and on word
    k+397, of the last block or (past the block's end) of this one, so word by word in order
    gives CPython's block; an episode draws a few dozen of its 624 words."""
    cdef int k = t.index
    cdef uint32_t y
    cdef uint32_t* mt = t.mt
    if k >= MT_N:
        k = 0
    y = (mt[k] & 0x80000000U) | (mt[k + 1 if k + 1 < MT_N else 0] & 0x7fffffffU)
    mt[k] = (mt[k + MT_M if k + MT_M < MT_N else k + MT_M - MT_N] ^ (y >> 1)
             ^ (0x9908b0dfU if y & 1 else 0U))
    y = mt[k]
    t.index = k + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9d2c5680U
    y ^= (y << 15) & 0xefc60000U
    y ^= y >> 18
    return y


cdef int tw_below(Twister* t, int n) noexcept nogil:
    """``randrange(n)`` for 0 < n < 2**31: ``getrandbits(n.bit_length())`` until below n."""
    cdef int k = 64 - clz64(n)
    cdef uint32_t r = tw_next(t) >> (32 - k)
    while r >= <uint32_t>n:
        r = tw_next(t) >> (32 - k)
    return r


cdef inline uint64_t tw_bits64(Twister* t) noexcept nogil:
    """``getrandbits(64)``: the first word drawn is the low one."""
    cdef uint64_t low = tw_next(t)
    return low | (<uint64_t>tw_next(t)) << 32
