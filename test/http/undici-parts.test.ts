import { describe, expect, it } from 'vitest';

// src/http/transport.ts loads three of undici's own files instead of its entry point (a measured
// saving at start-up) and falls back to the entry point when they move. The fallback keeps working
// but loses the saving silently: this test is what notices an undici release that moved them.
describe("undici's parts the transport loads", () => {
  it('are where the transport looks for them, with the shapes it uses', async () => {
    const [agent, api, connect] = await Promise.all([
      import('undici/lib/dispatcher/agent.js' as string),
      import('undici/lib/api/index.js' as string),
      import('undici/lib/core/connect.js' as string),
    ]);
    expect(typeof (agent.default ?? agent)).toBe('function');
    expect(typeof (api.default ?? api).request).toBe('function');
    expect(typeof (connect.default ?? connect)).toBe('function');
  });
});
