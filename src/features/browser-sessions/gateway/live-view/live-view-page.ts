// The live view page: one HTML document with its script and style inline (no
// external asset, no CDN), allowed by a per-response nonce in its
// Content-Security-Policy. It draws the newest frame on a canvas, lists the
// session's tabs, and when interactive sends mouse, wheel and keyboard input in
// the page's CSS pixels (scaled from the canvas with the frame's metadata).

export interface LiveViewPageOptions {
  sessionId: string;
  /** The live-view WebSocket, token included. */
  socketUrl: string;
  interactive: boolean;
  nonce: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function liveViewContentSecurityPolicy(nonce: string, socketOrigin: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    'img-src data: blob:',
    `connect-src ${socketOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    // Embeddable, as upstream's live views are (iframes in a customer's page).
    'frame-ancestors *',
  ].join('; ');
}

const STYLE = `
  html, body { margin: 0; height: 100%; background: #111; color: #ddd; font: 13px system-ui, sans-serif; }
  body { display: flex; flex-direction: column; }
  header { display: flex; gap: 8px; align-items: center; padding: 6px 10px; background: #1d1d1d; border-bottom: 1px solid #333; }
  header select { flex: 1; min-width: 0; background: #222; color: #ddd; border: 1px solid #444; padding: 3px; }
  #mode { padding: 2px 6px; border-radius: 3px; background: #333; }
  #mode.interactive { background: #1f5f2f; }
  #status { color: #999; }
  main { flex: 1; display: flex; align-items: center; justify-content: center; overflow: hidden; }
  canvas { max-width: 100%; max-height: 100%; background: #fff; outline: none; }
`;

function head(opts: LiveViewPageOptions): string {
  return `<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Live view · ${escapeHtml(opts.sessionId)}</title>
<style nonce="${opts.nonce}">${STYLE}</style>
</head>`;
}

/** The tab list and status above the canvas the frames are drawn on. */
function body(opts: LiveViewPageOptions): string {
  return `<header>
  <span id="mode">${opts.interactive ? 'interactive' : 'view only'}</span>
  <select id="tabs" aria-label="Tab"></select>
  <span id="status">connecting…</span>
</header>
<main><canvas id="screen" tabindex="0" width="1280" height="720"></canvas></main>`;
}

/** The viewer: draws frames, lists tabs, and when interactive sends input. `config` is JSON safe inside a script element. */
function viewerScript(config: string): string {
  return `(() => {
  const config = ${config};
  const canvas = document.getElementById('screen');
  const ctx = canvas.getContext('2d');
  const tabs = document.getElementById('tabs');
  const status = document.getElementById('status');
  if (config.interactive) document.getElementById('mode').classList.add('interactive');
  let metadata = null;
  let frames = 0;
  const ws = new WebSocket(config.socketUrl);
  const send = (message) => { if (ws.readyState === 1) ws.send(JSON.stringify(message)); };
  ws.onopen = () => { status.textContent = 'connected'; };
  ws.onclose = (e) => { status.textContent = 'disconnected' + (e.reason ? ': ' + e.reason : ''); };
  ws.onmessage = (e) => {
    const message = JSON.parse(e.data);
    if (message.type === 'frame') {
      const image = new Image();
      image.onload = () => {
        if (canvas.width !== image.width || canvas.height !== image.height) { canvas.width = image.width; canvas.height = image.height; }
        ctx.drawImage(image, 0, 0);
        metadata = message.metadata;
        frames++;
        canvas.dataset.frames = String(frames);
      };
      image.src = 'data:image/jpeg;base64,' + message.data;
    } else if (message.type === 'tabs') {
      tabs.replaceChildren(...message.tabs.map((t) => {
        const option = document.createElement('option');
        option.value = t.targetId;
        option.textContent = (t.title || t.url || 'about:blank').slice(0, 120);
        option.selected = t.targetId === message.current;
        return option;
      }));
    } else if (message.type === 'ended') {
      status.textContent = 'session ended: ' + message.reason;
    }
  };
  tabs.onchange = () => send({ type: 'switch', targetId: tabs.value });
  if (!config.interactive) return;

  // Canvas pixels -> the page's CSS pixels.
  const point = (e) => {
    const box = canvas.getBoundingClientRect();
    const width = metadata ? metadata.deviceWidth : canvas.width;
    const height = metadata ? metadata.deviceHeight : canvas.height;
    return { x: ((e.clientX - box.left) / box.width) * width, y: ((e.clientY - box.top) / box.height) * height };
  };
  const modifiers = (e) => (e.altKey ? 1 : 0) | (e.ctrlKey ? 2 : 0) | (e.metaKey ? 4 : 0) | (e.shiftKey ? 8 : 0);
  const buttons = ['left', 'middle', 'right'];
  let lastMove = 0;
  canvas.addEventListener('mousedown', (e) => { canvas.focus(); send({ type: 'mouse', event: 'mousePressed', ...point(e), button: buttons[e.button] || 'left', clickCount: Math.min(3, e.detail || 1), modifiers: modifiers(e) }); e.preventDefault(); });
  canvas.addEventListener('mouseup', (e) => { send({ type: 'mouse', event: 'mouseReleased', ...point(e), button: buttons[e.button] || 'left', clickCount: Math.min(3, e.detail || 1), modifiers: modifiers(e) }); e.preventDefault(); });
  canvas.addEventListener('mousemove', (e) => { const now = performance.now(); if (now - lastMove < 33) return; lastMove = now; send({ type: 'mouse', event: 'mouseMoved', ...point(e), modifiers: modifiers(e) }); });
  canvas.addEventListener('wheel', (e) => { send({ type: 'wheel', ...point(e), deltaX: e.deltaX, deltaY: e.deltaY, modifiers: modifiers(e) }); e.preventDefault(); }, { passive: false });
  canvas.addEventListener('contextmenu', (e) => e.preventDefault());
  const key = (event) => (e) => {
    const text = event === 'keyDown' && e.key.length === 1 && !e.ctrlKey && !e.metaKey ? e.key : undefined;
    send({ type: 'key', event, key: e.key.slice(0, 32), code: e.code.slice(0, 32), keyCode: e.keyCode & 255, modifiers: modifiers(e), ...(text && { text }) });
    e.preventDefault();
  };
  canvas.addEventListener('keydown', key('keyDown'));
  canvas.addEventListener('keyup', key('keyUp'));
  canvas.addEventListener('paste', (e) => { const text = e.clipboardData.getData('text'); if (text) send({ type: 'text', text: text.slice(0, 10000) }); e.preventDefault(); });
})();`;
}

export function liveViewPage(opts: LiveViewPageOptions): string {
  const config = JSON.stringify({ socketUrl: opts.socketUrl, interactive: opts.interactive }).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
${head(opts)}
<body>
${body(opts)}
<script nonce="${opts.nonce}">
${viewerScript(config)}
</script>
</body>
</html>
`;
}
