// Philox4x32-10, the counter-based generator shared with menace_lib/prng.py (its Python
// owner; see that module's docstring for the stream's definition). Every operation is on
// 32-bit unsigned integers, so JavaScript and Python produce the same words bit for bit:
// draw n of seed s is word (n mod 4) of block philox4x32([n/4 lo, n/4 hi, 0, 0], [s lo, s hi]).

const M0 = 0xd2511f53;
const M1 = 0xcd9e8d57;
const W0 = 0x9e3779b9;
const W1 = 0xbb67ae85;
const TWO32 = 4294967296;
const MAX_SPAN = 2097152; // 2^21

/** High 32 bits of the 64-bit product of two 32-bit unsigned integers (exact). */
function mulhi32(a, b) {
  const aHi = a >>> 16;
  const aLo = a & 0xffff;
  const bHi = b >>> 16;
  const bLo = b & 0xffff;
  const lolo = aLo * bLo;
  const mid1 = aHi * bLo;
  const mid2 = aLo * bHi;
  // Every partial sum stays below 2^53, so the arithmetic is exact.
  const carry = ((lolo >>> 16) + (mid1 & 0xffff) + (mid2 & 0xffff)) >>> 16;
  return (aHi * bHi + (mid1 >>> 16) + (mid2 >>> 16) + carry) >>> 0;
}

/** One block: four 32-bit words from counter [c0, c1, c2, c3] and key [k0, k1]. */
export function philox4x32(counter, key, rounds = 10) {
  let [c0, c1, c2, c3] = counter.map((x) => x >>> 0);
  let [k0, k1] = key.map((x) => x >>> 0);
  for (let r = 0; r < rounds; r++) {
    if (r > 0) {
      k0 = (k0 + W0) >>> 0;
      k1 = (k1 + W1) >>> 0;
    }
    const hi0 = mulhi32(M0, c0);
    const lo0 = Math.imul(M0, c0) >>> 0;
    const hi1 = mulhi32(M1, c2);
    const lo1 = Math.imul(M1, c2) >>> 0;
    c0 = (hi1 ^ c1 ^ k0) >>> 0;
    c1 = lo1;
    c2 = (hi0 ^ c3 ^ k1) >>> 0;
    c3 = lo0;
  }
  return [c0, c1, c2, c3];
}

/**
 * The stream of one seed from `position` on: {random(), integers(n), position, seed}.
 * `seed` is an integer in [0, 2^53) here (the Python side allows up to 2^64).
 * random() = word / 2^32; integers(n) = floor(word * n / 2^32), as in menace_lib/prng.py.
 */
export function counterRng(seed, position = 0) {
  if (!Number.isSafeInteger(seed) || seed < 0) throw new RangeError(`seed must be an integer >= 0, got ${seed}`);
  if (!Number.isSafeInteger(position) || position < 0) {
    throw new RangeError(`position must be an integer >= 0, got ${position}`);
  }
  const key = [seed % TWO32, Math.floor(seed / TWO32)];
  let blockIndex = -1;
  let block = [0, 0, 0, 0];
  const rng = {
    seed,
    position,
    word() {
      const index = Math.floor(rng.position / 4);
      if (index !== blockIndex) {
        block = philox4x32([index % TWO32, Math.floor(index / TWO32), 0, 0], key);
        blockIndex = index;
      }
      const word = block[rng.position % 4];
      rng.position += 1;
      return word;
    },
    random() {
      return rng.word() / TWO32;
    },
    integers(n) {
      // word * n < 2^53 keeps the product exact in a double (the board needs n <= 9).
      if (!Number.isInteger(n) || n < 1 || n > MAX_SPAN) throw new RangeError(`integers needs 1 to 2^21 values, got ${n}`);
      return Math.floor((rng.word() * n) / TWO32);
    },
  };
  return rng;
}
