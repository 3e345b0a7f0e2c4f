// Widget settings in the page's URL fragment, so a link can open a widget set up the same
// way: "#lambda=lam:2.6;pol:0.25". The fragment holds "key=value" parameters joined by "&";
// each widget owns one key, and writing one key keeps every other part of the fragment
// (other widgets' keys and a plain section anchor) as it was. Inlined into each widget's
// ESM by menace_lib/widgets/_bundle.py.

/** The fragment's parts in order: {key, value} for "key=value", {raw} for anything else. */
export function fragmentParts(hash) {
  const text = hash.startsWith("#") ? hash.slice(1) : hash;
  if (text === "") return [];
  return text.split("&").map((part) => {
    const eq = part.indexOf("=");
    if (eq <= 0) return { raw: part };
    try {
      return { key: decodeURIComponent(part.slice(0, eq)), value: decodeURIComponent(part.slice(eq + 1)) };
    } catch {
      return { raw: part }; // malformed %-escapes: not ours, keep as found
    }
  });
}

/** The value of `key` in `hash`, or null. */
export function fragmentParam(hash, key) {
  const part = fragmentParts(hash).find((p) => p.key === key);
  return part ? part.value : null;
}

// Characters a fragment may hold as they are (RFC 3986 pchar, "/" and "?"), minus the "&"
// and "=" that separate parameters.
const SAFE = /[A-Za-z0-9\-._~!$'()*+,;:@/?]/;

function encodePart(text) {
  return Array.from(text, (c) => (SAFE.test(c) ? c : encodeURIComponent(c))).join("");
}

/** `hash` with `key` set to `value` (appended if new), or removed when `value` is null. */
export function withFragmentParam(hash, key, value) {
  const parts = fragmentParts(hash);
  const at = parts.findIndex((p) => p.key === key);
  if (value === null) {
    if (at >= 0) parts.splice(at, 1);
  } else if (at >= 0) {
    parts[at] = { key, value };
  } else {
    parts.push({ key, value });
  }
  const text = parts.map((p) => ("raw" in p ? p.raw : `${encodePart(p.key)}=${encodePart(p.value)}`)).join("&");
  return text === "" ? "" : `#${text}`;
}

/** This page's value for `key`, or null (also when there is no browser location). */
export function readPageParam(key) {
  try {
    return fragmentParam(window.location.hash, key);
  } catch {
    return null;
  }
}

/** Set (or with null, remove) `key` in this page's fragment without scrolling or history. */
export function writePageParam(key, value) {
  try {
    const next = withFragmentParam(window.location.hash, key, value);
    if (next === window.location.hash) return;
    const url = window.location.href.split("#")[0] + next;
    window.history.replaceState(window.history.state, "", url);
  } catch {
    // no history API (a sandboxed frame): the link just cannot be kept up to date
  }
}
