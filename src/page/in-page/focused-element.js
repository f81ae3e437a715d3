// Where a key press goes (the press action, src/page/actions.ts): the focused element, else the body.
function focusedElement() {
  return document.activeElement ?? document.body;
}
