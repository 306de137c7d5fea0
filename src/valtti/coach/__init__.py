"""The coach: a hint's values and reasons at a position (``explain``, over ``appraise``'s sampled
deals and ``differences`` between two lines played out; ``reasons`` what it says) and the review
of finished play (``review``). Above the players, whose searches it runs; the front ends tell
what it finds in their words."""
