// The websocket to the server: hello with the seat's token, reconnection with back-off, and the tokens
// kept in this browser (a reload, or the link opened again, returns to the same seat).

const KEY = (code) => `cinch:room:${code}`;

export function stored(code) {
  try {
    return JSON.parse(localStorage.getItem(KEY(code)) || "{}");
  } catch {
    return {};
  }
}

export function store(code, values) {
  const now = { ...stored(code), ...values };
  for (const k of Object.keys(now)) if (now[k] == null) delete now[k];
  localStorage.setItem(KEY(code), JSON.stringify(now));
}

/** A random entropy string (this client's share of every deal's shuffle), kept per room. */
export function entropy(code) {
  let e = stored(code).entropy;
  if (!e) {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    e = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    store(code, { entropy: e });
  }
  return e;
}

export class Link {
  /** `onMessage(message)` gets every message; `onStatus(text or null)` the connection's state in words. */
  constructor(code, { onMessage, onStatus }) {
    this.code = code;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.delay = 500;
    this.closed = false;
    this.open();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws`;
  }

  open() {
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.onStatus(null);
      const { token, host_token: hostToken } = stored(this.code);
      const hello = { type: "hello", room: this.code };
      if (token) hello.token = token;
      if (hostToken) hello.host_token = hostToken;
      this.send(hello);
    };
    ws.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    };
    ws.onclose = () => {
      if (this.closed) return;
      const wait = Math.min(this.delay, 15000) * (0.75 + Math.random() * 0.5);
      this.onStatus(`Connection lost: trying again in ${Math.ceil(wait / 1000)} s…`);
      this.delay = Math.min(this.delay * 2, 15000);
      this.timer = setTimeout(() => this.open(), wait);
    };
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
