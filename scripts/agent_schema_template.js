// The validator part of menace_lib/widgets/agent_schema.js: scripts/make_agent_schema_js.py
// puts the schema, defaults and limits in front of it. Edit here, then run the script.

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** A value for a message: JSON, at most 40 characters. */
function show(value) {
  let text;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (text === undefined) text = String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

function where(path) {
  return path === "" ? "top level" : path;
}

const TYPE_NAMES = {
  array: "a list",
  object: "an object",
  number: "a number",
  integer: "a whole number",
  string: "text",
  boolean: "true or false",
  null: "null",
};

function hasType(value, type) {
  if (type === "array") return Array.isArray(value);
  if (type === "object") return isObject(value);
  if (type === "number") return typeof value === "number";
  if (type === "integer") return typeof value === "number" && Number.isInteger(value);
  if (type === "string") return typeof value === "string";
  if (type === "boolean") return typeof value === "boolean";
  if (type === "null") return value === null;
  throw new Error(`schema type ${type} is not supported`);
}

function resolve(node, root) {
  while (node && typeof node.$ref === "string") {
    const name = node.$ref.replace(/^#\/\$defs\//, "");
    node = root.$defs[name];
  }
  return node;
}

const SUPPORTED = new Set([
  "$schema", "$id", "$ref", "$defs", "title", "description", "type", "const", "enum",
  "required", "additionalProperties", "properties", "items", "minItems", "maxItems",
  "uniqueItems", "minimum", "maximum", "exclusiveMinimum", "pattern", "anyOf",
]);

/**
 * The first way `value` breaks `node` of `root` (a JSON Schema of the keywords in
 * SUPPORTED), as "path: what is wrong", or "" if it does not. Numbers must be finite
 * (JSON has no NaN or infinity; a number too large for a double parses to Infinity).
 */
export function schemaProblem(value, node = MENACE_SCHEMA, root = MENACE_SCHEMA, path = "") {
  node = resolve(node, root);
  for (const key of Object.keys(node)) {
    if (!SUPPORTED.has(key)) throw new Error(`schema keyword ${key} is not supported`);
  }
  const at = where(path);
  if (typeof value === "number" && !Number.isFinite(value)) return `${at}: must be a finite number, got ${show(value)}`;
  if (node.anyOf) {
    const fits = node.anyOf.some((option) => schemaProblem(value, option, root, path) === "");
    if (!fits) return `${at}: ${show(value)} is not valid under any of the given schemas`;
  }
  if ("const" in node && JSON.stringify(value) !== JSON.stringify(node.const)) {
    return `${at}: ${show(node.const)} was expected, got ${show(value)}`;
  }
  if (node.enum && !node.enum.some((v) => JSON.stringify(v) === JSON.stringify(value))) {
    return `${at}: ${show(value)} is not one of ${show(node.enum)}`;
  }
  if (node.type && !hasType(value, node.type)) return `${at}: must be ${TYPE_NAMES[node.type]}, got ${show(value)}`;
  if (typeof value === "number") {
    if ("minimum" in node && value < node.minimum) return `${at}: ${show(value)} is less than the minimum of ${node.minimum}`;
    if ("exclusiveMinimum" in node && value <= node.exclusiveMinimum) {
      return `${at}: ${show(value)} is less than or equal to the minimum of ${node.exclusiveMinimum}`;
    }
    if ("maximum" in node && value > node.maximum) return `${at}: ${show(value)} is greater than the maximum of ${node.maximum}`;
  }
  if (typeof value === "string" && node.pattern && !new RegExp(node.pattern, "u").test(value)) {
    return `${at}: ${show(value)} does not match ${show(node.pattern)}`;
  }
  if (Array.isArray(value)) {
    if ("minItems" in node && value.length < node.minItems) return `${at}: must list at least ${node.minItems} items, got ${value.length}`;
    if ("maxItems" in node && value.length > node.maxItems) return `${at}: must list at most ${node.maxItems} items, got ${value.length}`;
    if (node.uniqueItems && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) {
      return `${at}: has non-unique elements`;
    }
    if (node.items) {
      for (let i = 0; i < value.length; i++) {
        const problem = schemaProblem(value[i], node.items, root, `${path}[${i}]`);
        if (problem) return problem;
      }
    }
  }
  if (isObject(value)) {
    const props = node.properties || {};
    if (node.additionalProperties === false) {
      const extra = Object.keys(value).filter((k) => !Object.hasOwn(props, k)).sort();
      if (extra.length > 0) return `${at}: unknown field(s) ${show(extra)}`;
    }
    for (const key of node.required || []) {
      if (!Object.hasOwn(value, key)) return `${at}: ${show(key)} is a required property`;
    }
    for (const [key, sub] of Object.entries(props)) {
      if (Object.hasOwn(value, key)) {
        const problem = schemaProblem(value[key], sub, root, path === "" ? key : `${path}.${key}`);
        if (problem) return problem;
      }
    }
  }
  return "";
}

/** A MENACE file's config with MenaceConfig's defaults for the fields it leaves out. */
export function menaceConfig(doc) {
  return { ...CONFIG_DEFAULTS, ...doc.config };
}

/**
 * The first problem of a parsed MENACE file, as Menace.from_dict would report it, or ""
 * if it loads (boards and moves aside: the caller checks them against its tables).
 */
export function menaceFileProblem(doc) {
  if (!isObject(doc)) return "agent file: top level must be a JSON object";
  if (doc.format !== MENACE_FORMAT) return `format: expected ${show(MENACE_FORMAT)}, got ${show(doc.format)}`;
  if (doc.version !== MENACE_VERSION) {
    return `version: this library reads version ${MENACE_VERSION}, got ${show(doc.version)}`;
  }
  const problem = schemaProblem(doc);
  if (problem) return problem;
  // MenaceConfig and Menace.from_dict's rules beyond the schema.
  const cfg = menaceConfig(doc);
  if (cfg.move_restock_beads !== null && cfg.move_restock_beads <= cfg.floor) {
    return `config: move_restock_beads must exceed floor (${cfg.floor}), got ${cfg.move_restock_beads}`;
  }
  for (let i = 0; i < cfg.schedule.length; i++) {
    if (cfg.schedule[i] < cfg.floor) return `config: schedule[${i}] = ${cfg.schedule[i]} is below the clamp level floor = ${cfg.floor}`;
  }
  if (cfg.restock !== "none") {
    // Menace._check_no_empty_box: every box must start with beads (a box's schedule entry
    // is its number of pieces halved, the last entry for the rest).
    for (const box of doc.boxes) {
      const pieces = (box.board.match(/[XO]/g) || []).length;
      if (cfg.schedule[Math.min(Math.floor(pieces / 2), cfg.schedule.length - 1)] <= 0) {
        return (
          `config: schedule ${show(cfg.schedule)} gives 0 beads to boxes with ${pieces} pieces ` +
          `(e.g. ${show(box.board)}); restock ${show(cfg.restock)} cannot refill an empty box`
        );
      }
    }
  }
  for (let b = 0; b < doc.boxes.length; b++) {
    const beads = doc.boxes[b].beads;
    if (beads.length !== doc.boxes[b].moves.length) return `boxes[${b}].beads: must list ${doc.boxes[b].moves.length} counts`;
    for (let j = 0; j < beads.length; j++) {
      if (beads[j] < cfg.floor) return `boxes[${b}].beads[${j}]: ${beads[j]} is below the clamp level floor=${cfg.floor}`;
    }
    if (cfg.restock !== "none" && beads.reduce((a, x) => a + x, 0) <= 0) {
      return `boxes[${b}].beads: an empty box cannot arise under restock ${show(cfg.restock)}`;
    }
  }
  return "";
}

/**
 * The bytes of a file -> {doc} or {error}: at most maxBytes (MAX_FILE_BYTES by default), strict
 * UTF-8, JSON
 * (as menace_lib.base.files.read_json; a number beyond a double's range is refused by
 * menaceFileProblem, since JSON.parse reads it as Infinity).
 */
export function parseAgentBytes(bytes, maxBytes = MAX_FILE_BYTES) {
  if (bytes.length > maxBytes) {
    return { error: `the file is ${bytes.length.toLocaleString("en-GB")} bytes; an agent file is at most ${maxBytes.toLocaleString("en-GB")}` };
  }
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { error: "not valid JSON (not UTF-8 text)" };
  }
  try {
    return { doc: JSON.parse(text) };
  } catch (err) {
    return { error: `not valid JSON (${err && err.message ? show(err.message) : "unreadable"})` };
  }
}
