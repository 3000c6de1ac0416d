// Live data: a hook that fetches, then fetches again every second while the
// page is visible (a hidden tab asks nothing), so that a change shows within
// two seconds. `refresh` fetches at once (after an action). A refusal (401,
// 403) stops the polling: asking again each second would only be refused
// (and audited) again; the view shows the reason until it is left.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export const LIVE_INTERVAL_MS = 1000;

// `every`: the polling interval (a report that changes slowly asks less).
export function useLive(load, deps, every = LIVE_INTERVAL_MS) {
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
    const schedule = () => {
      clearInterval(timer.current);
      timer.current = document.hidden || refused.current ? null : setInterval(refresh, every);
    };
    const onVisibility = () => {
      if (refused.current) return;
      if (!document.hidden) refresh();
      schedule();
    };
    schedule();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      generation.current++;
      clearInterval(timer.current);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, deps);

  return { ...state, refresh };
}
