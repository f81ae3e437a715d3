// The intrinsic sizes of the page's loaded images that lack a width or height
// attribute (src/page/image-sizes.ts): at most `max` of them, [src, width, height] each.
function unsizedImageSizes(max) {
  const out = [];
  for (const img of Array.from(document.images)) {
    if (out.length >= max) break;
    if (img.getAttribute('width') && img.getAttribute('height')) continue;
    if (img.naturalWidth > 0 && img.naturalHeight > 0) out.push([img.src, img.naturalWidth, img.naturalHeight]);
  }
  return out;
}
