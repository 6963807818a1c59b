/** The browser terminal's flow control: pause past the high mark of undrawn output, resume below the low one, once each. */
import { expect, test } from 'bun:test';
import { FLOW_HIGH, FLOW_LOW, FlowControl } from '../../web/src/features/terminal/flow-control';

test('asks for a pause once past the high mark and a resume once drawn below the low mark', () => {
  const sent: string[] = [];
  const flow = new FlowControl((m) => sent.push(m.type));
  const chunk = 64 * 1024;
  const drawn: Array<() => void> = [];
  for (let i = 0; i * chunk <= FLOW_HIGH; i++) drawn.push(flow.written(chunk));
  expect(sent).toEqual(['pause']);
  drawn.push(flow.written(chunk));
  expect(sent).toEqual(['pause']);
  // Drawing brings the backlog down; only crossing the low mark resumes.
  let left = drawn.length * chunk;
  while (left - chunk >= FLOW_LOW) {
    drawn.shift()!();
    left -= chunk;
    expect(sent).toEqual(['pause']);
  }
  drawn.shift()!();
  expect(sent).toEqual(['pause', 'resume']);
  for (const done of drawn) done();
  expect(sent).toEqual(['pause', 'resume']);
});

test('small output never pauses; a new socket starts unpaused', () => {
  const sent: string[] = [];
  const flow = new FlowControl((m) => sent.push(m.type));
  for (let i = 0; i < 1000; i++) flow.written(100)();
  expect(sent).toEqual([]);
  const big = flow.written(FLOW_HIGH + 1);
  expect(sent).toEqual(['pause']);
  flow.reset();
  flow.written(1);
  expect(sent).toEqual(['pause', 'pause']);
  big();
});
