/**
 * Changing screens from inside a screen, without importing the router: a screen asks with a
 * `navigate` event on the window, and the router (router.js, which imports the screens) hears
 * it and shows the screen for that address. So the screens sit below the router and never
 * import it back.
 */

/** Show the screen at `path` (added to the history, or in place of this entry with replace). */
export function navigate(path, {replace = false} = {}) {
  window.dispatchEvent(new CustomEvent('navigate', {detail: {path, replace}}));
}
