// @ts-check
// A few lines of DOM building, so views read as the page they make.

/**
 * What a view may put in an element: text, numbers, elements, lists of them; null,
 * undefined and false leave nothing.
 * @typedef {Node | string | number | null | undefined | false | any[]} Child
 */

/**
 * An element: h('button', {id: 'x', onclick}, 'text', child, ...).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'style') for (const [p, val] of Object.entries(v)) el.style.setProperty(p, val);
    else if (k === 'value') /** @type {HTMLInputElement} */ (el).value = v;
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

/**
 * @param {Element} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/**
 * Replaces an element's children.
 * @param {Element} el
 * @param {...Child} children
 */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

const SVG = 'http://www.w3.org/2000/svg';

/**
 * An SVG element.
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {...(Node | null | undefined | false)} children
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) if (c) el.append(c);
  return el;
}
