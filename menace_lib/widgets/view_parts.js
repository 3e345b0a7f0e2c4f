// Parts the widgets' views share: a button of the widgets' style, text set only when it
// changes (live regions), the notice, a game widget's side-panel paragraphs and the
// fallback shown when a widget cannot start. Only the widgets that draw these import
// this module (menace_lib/widgets/_bundle.py ships a module only to the widgets that
// import it, directly or not).
import { h } from "./common.js";

/** A button of the widgets' style ("mw-button", "mw-primary" for the main action). */
export function button(text, testid, onclick = null, primary = false) {
  return h("button", { type: "button", class: primary ? "mw-button mw-primary" : "mw-button", "data-testid": testid, onclick }, text);
}

/** Set an element's text only if it changed: a live region is then read out once. */
export function showText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/** A widget's notice ({text, kind}): its text, in the error style when kind is "error". */
export function showNotice(el, notice) {
  showText(el, notice.text);
  el.classList.toggle("mw-error", notice.kind === "error");
}

/**
 * The side panel's paragraphs of a game widget, test ids `<prefix>-status`, `-result`,
 * `-tally`, `-last` and `-notice`: the status line, the announced result, the tally,
 * the machine's last move and the widget's notice (the polite live regions).
 */
export function sideParagraphs(prefix) {
  return {
    status: h("p", { class: "mw-status", "data-testid": `${prefix}-status` }),
    live: h("p", { class: "mw-result", "aria-live": "polite", role: "status", "data-testid": `${prefix}-result` }),
    tally: h("p", { class: "mw-tally", "data-testid": `${prefix}-tally` }),
    last: h("p", { class: "mw-last", "aria-live": "polite", "data-testid": `${prefix}-last` }),
    notice: h("p", { class: "mw-notice", "aria-live": "polite", "data-testid": `${prefix}-notice` }),
  };
}

/**
 * Mount a widget; if it cannot start (a damaged payload), say so in its place instead of
 * leaving an empty space or a stack trace in the console. `fallback`: {className, testid,
 * name, hint} ("The <name> could not start: <why>.", then the hint if any).
 */
export function mountOrExplain(mount, model, el, fallback) {
  try {
    return mount(model, el);
  } catch (err) {
    const why = err && err.message ? err.message : err;
    const { className, testid, name, hint } = fallback;
    el.replaceChildren(
      h("div", { class: className, role: "alert", "data-testid": testid }, `The ${name} could not start: ${why}.${hint ? ` ${hint}` : ""}`),
    );
    return () => {};
  }
}

/**
 * Show the page's address (which now holds the widget's settings) in `field`, selected to
 * copy, and copy it too where the browser allows. `say(text)` tells the reader which:
 * `shown`, then `copied` once the clipboard took it.
 */
export function offerLink(field, say, shown, copied) {
  field.value = window.location.href;
  field.hidden = false;
  field.select();
  say(shown);
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(field.value).then(
      () => say(copied),
      () => {}, // no clipboard permission: the link is shown to copy by hand
    );
  }
}
