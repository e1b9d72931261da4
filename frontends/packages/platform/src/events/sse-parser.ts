/**
 * An incremental parser for the Server-Sent Events wire format (the WHATWG
 * "event stream" rules): text arrives in arbitrary chunks, lines end in \n,
 * \r\n or \r, a blank line dispatches, ':' lines are comments (heartbeats).
 */
export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

export interface SseParser {
  push(chunk: string): void;
  /** The server's suggested reconnect delay, when it sent one. */
  readonly retryMs: number | undefined;
}

export function createSseParser(onMessage: (message: SseMessage) => void): SseParser {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  let retryMs: number | undefined;
  // A chunk may end between \r and \n; the \n must not then count as a second line end.
  let skipLeadingNewline = false;

  const dispatch = () => {
    if (data.length > 0) onMessage({ event: event || 'message', data: data.join('\n'), id });
    event = '';
    data = [];
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return; // comment / heartbeat
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        event = value;
        break;
      case 'data':
        data.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) id = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) retryMs = Number(value);
        break;
      default:
        break; // unknown fields are ignored, as the format requires
    }
  };

  return {
    push(chunk: string) {
      buffer += chunk;
      if (skipLeadingNewline && buffer.startsWith('\n')) buffer = buffer.slice(1);
      skipLeadingNewline = false;
      let match: RegExpExecArray | null;
      const lineEnd = /\r\n|\r|\n/g;
      let consumed = 0;
      while ((match = lineEnd.exec(buffer)) !== null) {
        // A trailing lone \r might be the first half of \r\n: wait for more text.
        if (match[0] === '\r' && match.index === buffer.length - 1) {
          line(buffer.slice(consumed, match.index));
          consumed = buffer.length;
          skipLeadingNewline = true;
          break;
        }
        line(buffer.slice(consumed, match.index));
        consumed = match.index + match[0].length;
      }
      buffer = buffer.slice(consumed);
    },
    get retryMs() {
      return retryMs;
    },
  };
}
