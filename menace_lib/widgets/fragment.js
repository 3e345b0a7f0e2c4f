// A page's URL fragment shared by several widgets: "#play=...&lambda=...".
//
// Each widget owns one key. Reading takes that key's value; writing replaces or removes
// only that key and keeps every other part (other widgets' keys, and a plain anchor such
// as "#reading-the-board") as it was, in order.

/**
 * The longest value a widget's key may have (every widget's own settings are under 600
 * characters). A longer one is refused before it is decoded or parsed, so a hostile link
 * (80,000 or 2 million characters) costs nothing, and it is never echoed.
 */
export const MAX_FRAGMENT_VALUE = 1000;

/** At most `limit` characters of `text` for a message: "abc…" (never the whole of a huge value). */
export function shortText(text, limit = 40) {
  const s = String(text);
  return s.length > limit ? `${s.slice(0, limit - 1)}…` : s;
}

/** The parts of a fragment ("#a=1&b" -> ["a=1", "b"]); "" and "#" have none. */
function parts(hash) {
  const text = String(hash || "").replace(/^#/, "");
  return text === "" ? [] : text.split("&");
}

/**
 * The value of `key` in `hash` (the last one if repeated), or null if it is absent.
 * Throws a RangeError (a short message, no echo) if the value is over MAX_FRAGMENT_VALUE.
 */
export function fragmentValue(hash, key) {
  let value = null;
  for (const part of parts(hash)) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq) === key) {
      const raw = part.slice(eq + 1);
      if (raw.length > MAX_FRAGMENT_VALUE) {
        throw new RangeError(
          `the link's ${key} settings are ${raw.length.toLocaleString("en-GB")} characters long; ` +
            `at most ${MAX_FRAGMENT_VALUE.toLocaleString("en-GB")} are read`,
        );
      }
      try {
        value = decodeURIComponent(raw);
      } catch {
        value = raw; // a stray "%": keep the text as it is
      }
    }
  }
  return value;
}

/**
 * `hash` with `key` set to `value`, or removed when `value` is null. Returns the new
 * fragment with its "#", or "" when nothing is left. `value` must not contain "&", "="
 * or "#" (the caller's format avoids them).
 */
export function withFragmentValue(hash, key, value) {
  if (value !== null && /[&=#\s]/.test(value)) {
    throw new Error(`fragment value for ${key} may not contain &, =, # or spaces: ${value}`);
  }
  const kept = parts(hash).filter((part) => {
    const eq = part.indexOf("=");
    return !(eq > 0 && part.slice(0, eq) === key);
  });
  if (value !== null) kept.push(`${key}=${value}`);
  return kept.length > 0 ? `#${kept.join("&")}` : "";
}

/**
 * This page's value for `key`, or null (also where there is no browser location).
 * Throws fragmentValue's RangeError for an over-long value, for the widget to say.
 */
export function readPageParam(key) {
  let hash;
  try {
    hash = window.location.hash;
  } catch {
    return null;
  }
  return fragmentValue(hash, key);
}

/** Set (or, with null, remove) `key` in this page's fragment, without scrolling or history. */
export function writePageParam(key, value) {
  try {
    const next = withFragmentValue(window.location.hash, key, value);
    if (next === window.location.hash || (next === "" && window.location.hash === "#")) return;
    const { pathname, search } = window.location;
    window.history.replaceState(window.history.state, "", next || pathname + search);
  } catch {
    // no history API (a sandboxed frame): the link just cannot be kept up to date
  }
}
