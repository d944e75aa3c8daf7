//! Updating a results card in place: the new HTML is parsed aside and only what differs (text,
//! attributes, changed or added nodes) is written into the live card, so an input that changes
//! a few numbers lays out those numbers rather than the whole card (`innerHTML` rebuilt and laid
//! out every node of it on every input). Nodes keep their identity: focus and scroll survive.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
export function morph(el, html) {
  const t = document.createElement('template');
  t.innerHTML = html;
  patch(el, t.content);
}
function same(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName && (a.nodeType !== 1 || a.id === b.id);
}
function patch(live, next) {
  let a = live.firstChild;
  let b = next.firstChild;
  while (b) {
    const nb = b.nextSibling;
    if (!a) {
      live.appendChild(b);
    } else if (!same(a, b)) {
      const na = a.nextSibling;
      live.replaceChild(b, a);
      a = na;
    } else {
      if (a.nodeType === 1) {
        attrs(a, b);
        patch(a, b);
      } else if (a.nodeValue !== b.nodeValue) {
        a.nodeValue = b.nodeValue;
      }
      a = a.nextSibling;
    }
    b = nb;
  }
  while (a) {
    const na = a.nextSibling;
    live.removeChild(a);
    a = na;
  }
}
function attrs(a, b) {
  const na = a.attributes;
  const nb = b.attributes;
  for (let i = 0; i < nb.length; i++) {
    const x = nb[i];
    if (a.getAttribute(x.name) !== x.value) a.setAttribute(x.name, x.value);
  }
  // Every attribute of the new node is on the live one now: it has others only when it has more.
  for (let i = na.length - 1; na.length > nb.length && i >= 0; i--) {
    if (!b.hasAttribute(na[i].name)) a.removeAttribute(na[i].name);
  }
  // What a user's edits detach from the attributes follows the new HTML too, except in the
  // field being typed in.
  if (a.nodeName === 'INPUT' && a !== document.activeElement) {
    const v = b.getAttribute('value') || '';
    if (a.value !== v) a.value = v;
    if (a.checked !== b.hasAttribute('checked')) a.checked = b.hasAttribute('checked');
  } else if (a.nodeName === 'OPTION' && a.selected !== b.hasAttribute('selected')) {
    a.selected = b.hasAttribute('selected');
  }
}
"#)]
extern "C" {
    /// Makes `el`'s content equal to `html`, touching only what differs.
    pub fn morph(el: &web_sys::Element, html: &str);
}
