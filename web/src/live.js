// Live data: a hook that fetches, then fetches again when allotd's change
// stream (changes.js, server-sent events) says something changed, while the
// page is visible (a hidden tab asks nothing; it fetches when shown again).
// No polling while the stream is open; while it is down the view polls every
// FALLBACK_MS. `every`, when given, polls besides (data that changes with time
// alone: a cost report, a signal's pending state). `refresh` fetches at once
// (after an action). A refusal (401, 403) stops it: asking again would only
// be refused (and audited) again; the view shows the reason until it is left.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { onChange, streamOpen } from './changes.js';

export const LIVE_INTERVAL_MS = 1000;
export const FALLBACK_MS = 5000;
// Data that changes with time alone (usage and spend grow, a signal turns
// pending without a stored change) is asked this often besides.
export const TIME_BOUND_MS = 15000;

export function useLive(load, deps, every = 0) {
  const [state, setState] = useState({ data: null, error: null, loading: true });
  const loadRef = useRef(load);
  loadRef.current = load;
  const generation = useRef(0);
  const refused = useRef(false);
  const timer = useRef(null);

  const refresh = useCallback(async () => {
    const mine = ++generation.current;
    try {
      const data = await loadRef.current();
      if (mine === generation.current) setState({ data, error: null, loading: false });
    } catch (error) {
      if (mine !== generation.current) return;
      if (error && (error.status === 401 || error.status === 403)) {
        refused.current = true;
        clearInterval(timer.current);
      }
      setState((old) => ({ ...old, error, loading: false }));
    }
  }, []);

  useEffect(() => {
    setState({ data: null, error: null, loading: true });
    refused.current = false;
    refresh();
    const active = () => !document.hidden && !refused.current;
    const tick = () => {
      if (active() && (every || !streamOpen())) refresh();
    };
    const schedule = () => {
      clearInterval(timer.current);
      timer.current = active() ? setInterval(tick, every || FALLBACK_MS) : null;
    };
    const onVisibility = () => {
      if (refused.current) return;
      if (!document.hidden) refresh();
      schedule();
    };
    const unsubscribe = onChange(() => {
      if (active()) refresh();
    });
    schedule();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      generation.current++;
      unsubscribe();
      clearInterval(timer.current);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, deps);

  return { ...state, refresh };
}
