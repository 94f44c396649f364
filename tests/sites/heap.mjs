// Whether removed <roofline-calculator> elements are released, counted the same way however busy
// the machine is. tests/web/helpers.mjs rememberCalculators() keeps a WeakRef to each element;
// this counts those still alive outside the document after garbage collections forced through
// Chromium's DevTools protocol (HeapProfiler.collectGarbage, over playwright's CDP session).
//
// Why not gc() called from the page (--expose-gc): that collection runs with the page's script on
// the stack, and Blink scans the stack conservatively, so whatever a stale stack slot points at
// survives it; and waiting "up to 3 s" for the count to reach 0 gave a loaded machine fewer
// collections than an idle one (the VitePress check once failed that way, 1 !== 0, on a busy
// machine). The protocol's collection runs from a task of its own, with no script on the stack.
// Each round also lets the page finish what it had queued for the removed elements (two frames,
// a timer and an idle callback, in which the page's own idle work runs first), so the count
// depends on rounds, not on time. An element that something still references stays alive through
// every round, and the count stays where it is: the check still fails on a real leak.

/**
 * The number of remembered calculators alive outside the document once collections have stopped
 * changing that number (at most `rounds` collections; it stops at 0, or after the same count three
 * rounds in a row). Sets globalThis.__alive in the page to the kinds still alive.
 */
export async function aliveAfterCollections(page, { rounds = 8 } = {}) {
  const cdp = await page.context().newCDPSession(page);
  const counts = [];
  try {
    for (let i = 0; i < rounds; i += 1) {
      await page.evaluate(() => new Promise((resolve) => {
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => {
          if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 5000 });
          else resolve();
        }, 0)));
      }));
      await cdp.send('HeapProfiler.collectGarbage');
      const n = await page.evaluate(() => {
        const alive = (globalThis.__calcRefs || []).map((r) => r.deref()).filter((el) => el && !el.isConnected);
        globalThis.__alive = alive.map((el) => el.getAttribute('kind'));
        return alive.length;
      });
      counts.push(n);
      if (n === 0) break;
      if (counts.length >= 3 && counts.slice(-3).every((c) => c === n)) break;
    }
  } finally {
    await cdp.detach().catch(() => {});
  }
  console.log(`# removed calculators alive after each collection: ${counts.join(', ')}`);
  return counts[counts.length - 1];
}
