// @ts-check
// The board from the keyboard: one point of the board is in the Tab order (a roving
// cursor); the arrow keys move it, Home/End go to the row's ends, and Enter or Space
// plays there as a click would (the points are buttons). The cursor outlives redraws.

/**
 * Makes the buttons of `grid` (`cols` to a row, in reading order) a roving cursor.
 * `state.at` is the cursor's index (kept by the caller across redraws); `refocus`
 * puts the keyboard focus back on it after a redraw that took it away.
 */
/**
 * @param {Element} grid
 * @param {number} cols
 * @param {{at?: number}} state
 * @param {boolean} refocus
 */
export function rove(grid, cols, state, refocus) {
  const points = [...grid.querySelectorAll('button')];
  if (!points.length) return;
  if (!(state.at >= 0 && state.at < points.length)) state.at = Math.floor(points.length / cols / 2) * cols + Math.floor(cols / 2);
  /**
   * @param {number} i
   * @param {boolean} focus
   */
  const put = (i, focus) => {
    points.forEach((b, j) => {
      b.tabIndex = j === i ? 0 : -1;
      b.classList.toggle('kbd-cursor', j === i);
    });
    state.at = i;
    if (focus) points[i].focus();
  };
  put(state.at, refocus);
  grid.addEventListener('keydown', (/** @type {Event} */ ev) => {
    const e = /** @type {KeyboardEvent} */ (ev);
    const i = points.indexOf(/** @type {HTMLButtonElement} */ (e.target));
    if (i === -1) return;
    const row = Math.floor(i / cols);
    const col = i % cols;
    const rows = Math.ceil(points.length / cols);
    /** @type {Record<string, number>} */
    const moves = {
      ArrowLeft: col > 0 ? i - 1 : i,
      ArrowRight: col < cols - 1 ? i + 1 : i,
      ArrowUp: row > 0 ? i - cols : i,
      ArrowDown: row < rows - 1 ? i + cols : i,
      Home: row * cols,
      End: row * cols + cols - 1,
    };
    const to = moves[e.key];
    if (to === undefined) return;
    e.preventDefault();
    put(to, true);
  });
  grid.addEventListener('focusin', (e) => {
    const i = points.indexOf(/** @type {HTMLButtonElement} */ (e.target));
    if (i !== -1 && i !== state.at) put(i, false);
  });
}
