// The scroll action (src/page/actions.ts): scrolls the element, or the window when there is
// none, by its visible height; down when `sign` is 1, up when it is -1.
function scrollByView({ element, sign }) {
  if (element) element.scrollBy(0, sign * element.clientHeight);
  else window.scrollBy(0, sign * window.innerHeight);
}
