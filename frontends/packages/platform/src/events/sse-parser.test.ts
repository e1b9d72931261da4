import { describe, expect, it } from 'vitest';
import { createSseParser, type SseMessage } from './sse-parser';

function parse(chunks: string[]) {
  const messages: SseMessage[] = [];
  const parser = createSseParser((message) => messages.push(message));
  chunks.forEach((chunk) => parser.push(chunk));
  return { messages, parser };
}

describe('createSseParser', () => {
  it('parses an event split across arbitrary chunks', () => {
    const { messages } = parse(['eve', 'nt: rep', 'ort\nda', 'ta: {"status":"REPORT_', 'STATUS_READY"}\n', '\n']);
    expect(messages).toEqual([{ event: 'report', data: '{"status":"REPORT_STATUS_READY"}', id: undefined }]);
  });

  it('parses several events in one chunk and ignores heartbeats (comments)', () => {
    const { messages } = parse([
      ': heartbeat\n\nevent: report\ndata: {"progressPercent":10}\n\n: ping\n\nevent: report\ndata: {"progressPercent":60}\nid: 7\n\n',
    ]);
    expect(messages.map((message) => JSON.parse(message.data).progressPercent)).toEqual([10, 60]);
    expect(messages[1]?.id).toBe('7');
  });

  it('handles CRLF split between chunks, multi-line data and the default event name', () => {
    const { messages } = parse(['data: one\r', '\ndata: two\r\n\r', '\n']);
    expect(messages).toEqual([{ event: 'message', data: 'one\ntwo', id: undefined }]);
  });

  it('does not dispatch an event without data, and waits for the blank line', () => {
    const { messages } = parse(['event: report\n\n', 'event: report\ndata: x\n']);
    expect(messages).toEqual([]);
  });

  it('remembers the retry hint', () => {
    const { parser } = parse(['retry: 5000\n\n']);
    expect(parser.retryMs).toBe(5000);
  });
});
