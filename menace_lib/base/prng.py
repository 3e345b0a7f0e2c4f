"""Philox4x32-10: the one random-number generator shared with the widgets' JavaScript.

The MENACE lab runs its games in the browser, and a Python test replays the same seed
through the library. Both sides therefore need the *same* stream of random numbers, and
numpy's generators have no JavaScript twin. Philox4x32-10 (Salmon, Moraes, Dror and Shaw,
"Parallel random numbers: as easy as 1, 2, 3", SC 2011; the Random123 library) is a
counter-based generator built from 32-bit multiplications, so a JavaScript copy
(``menace_lib/widgets/prng.js``) computes it bit for bit.

The stream
----------
For a seed ``s`` (an integer in ``[0, 2**64)``) the key is ``(s mod 2**32, s >> 32)``.
Block ``i`` is ``philox4x32(counter=(i mod 2**32, i >> 32, 0, 0), key)``: four 32-bit
words. Draw number ``n`` (``n = 0, 1, 2, ...``) is word ``n mod 4`` of block ``n // 4``,
so the generator's whole state is the pair ``(seed, position)``: any draw can be
recomputed from its index, and a run can be resumed from a saved position.

From a word ``x``:

* ``random()`` returns ``x / 2**32``, a multiple of ``2**-32`` in ``[0, 1)`` (exact in
  both languages);
* ``integers(n)`` returns ``(x * n) >> 32``, i.e. ``floor(x * n / 2**32)`` in
  ``[0, n)``. Its bias is below ``n / 2**32`` (under ``3e-9`` for the nine squares of the
  board), far below anything a game can show. ``n`` is at most ``2**21``, so that the
  JavaScript copy's product ``x * n`` is exact in a double.

:class:`CounterRng` offers the two methods of :class:`numpy.random.Generator` that
:meth:`menace_lib.machine.menace.Menace.choose` and
:meth:`menace_lib.play.opponents.TableOpponent.move` call (``random()`` and
``integers(high)``), so library code draws from it unchanged.
"""

from __future__ import annotations

from numbers import Integral

__all__ = ["CounterRng", "philox4x32"]

_MASK = 0xFFFFFFFF
_M0, _M1 = 0xD2511F53, 0xCD9E8D57  # round multipliers
_W0, _W1 = 0x9E3779B9, 0xBB67AE85  # key schedule (golden ratio, sqrt(3) - 1)
ROUNDS = 10
SEED_LIMIT = 2**64
MAX_SPAN = 2**21  # keeps the JavaScript product word * n exact


def _check_word(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or not 0 <= value <= _MASK:
        raise ValueError(f"{name} must be a 32-bit unsigned integer, got {value!r}")
    return int(value)


def philox4x32(
    counter: tuple[int, int, int, int], key: tuple[int, int], rounds: int = ROUNDS
) -> tuple[int, int, int, int]:
    """One Philox4x32 block: four 32-bit words from a 128-bit counter and a 64-bit key.

    Raises
    ------
    ValueError
        If the counter is not four words or the key not two (each in ``[0, 2**32)``).
    """
    if len(counter) != 4 or len(key) != 2:
        raise ValueError(f"counter must be 4 words and key 2, got {counter!r} and {key!r}")
    c0, c1, c2, c3 = (_check_word(f"counter[{i}]", c) for i, c in enumerate(counter))
    k0, k1 = (_check_word(f"key[{i}]", k) for i, k in enumerate(key))
    for r in range(rounds):
        if r:  # the key is bumped before every round but the first
            k0 = (k0 + _W0) & _MASK
            k1 = (k1 + _W1) & _MASK
        p0 = _M0 * c0
        p1 = _M1 * c2
        c0, c1, c2, c3 = (
            ((p1 >> 32) ^ c1 ^ k0) & _MASK,
            p1 & _MASK,
            ((p0 >> 32) ^ c3 ^ k1) & _MASK,
            p0 & _MASK,
        )
    return c0, c1, c2, c3


def check_seed(seed: object) -> int:
    """A seed as an int in ``[0, 2**64)``; anything else raises ``ValueError``."""
    if isinstance(seed, bool) or not isinstance(seed, Integral) or not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"seed must be an integer in [0, 2**64), got {seed!r}")
    return int(seed)


class CounterRng:
    """The Philox4x32-10 stream of one seed, read from ``position`` on.

    Parameters
    ----------
    seed
        Integer in ``[0, 2**64)``.
    position
        Index of the next draw (0 for a fresh stream).
    """

    def __init__(self, seed: int, position: int = 0) -> None:
        self.seed = check_seed(seed)
        if isinstance(position, bool) or not isinstance(position, Integral) or position < 0:
            raise ValueError(f"position must be an integer ≥ 0, got {position!r}")
        self.position = int(position)
        self._key = (self.seed & _MASK, self.seed >> 32)
        self._block_index = -1
        self._block: tuple[int, int, int, int] = (0, 0, 0, 0)

    def word(self) -> int:
        """The next 32-bit word of the stream."""
        index, lane = divmod(self.position, 4)
        if index != self._block_index:
            counter = (index & _MASK, (index >> 32) & _MASK, 0, 0)
            self._block = philox4x32(counter, self._key)
            self._block_index = index
        self.position += 1
        return self._block[lane]

    def random(self) -> float:
        """A uniform number in ``[0, 1)`` (one draw)."""
        return self.word() / 2**32

    def integers(self, low: int, high: int | None = None) -> int:
        """A uniform integer in ``[0, low)``, or ``[low, high)`` (one draw).

        Raises
        ------
        ValueError
            If the range is empty or wider than ``2**21``.
        """
        lo, hi = (0, low) if high is None else (low, high)
        span = int(hi) - int(lo)
        if not 0 < span <= MAX_SPAN:
            raise ValueError(f"integers needs a range of 1 to 2**21 values, got [{lo}, {hi})")
        return int(lo) + ((self.word() * span) >> 32)

    def __repr__(self) -> str:
        return f"CounterRng(seed={self.seed}, position={self.position})"
