// A pod's log, followed: polls GET .../logs?pod=N&offset=O from the offset
// the last answer gave (X-Allot-Log-Offset), so each poll carries only what
// is new; keeps the last 256 KiB on screen.
import { useEffect, useRef, useState } from 'preact/hooks';
import { workloadPath } from '../api.js';
import { LIVE_INTERVAL_MS } from '../live.js';

const KEEP = 256 * 1024;

export function Logs({ ns, name, pod }) {
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const offset = useRef(0);
  useEffect(() => {
    offset.current = 0;
    setText('');
    let stopped = false;
    const poll = async () => {
      if (document.hidden) return;
      try {
        const response = await fetch(`${workloadPath(ns, name)}/logs?pod=${pod}&offset=${offset.current}`, {
          credentials: 'same-origin',
          cache: 'no-store',
        });
        if (!response.ok) {
          const body = await response.json().catch(() => ({}));
          if (!stopped) setError(body.message || `${response.status}`);
          return;
        }
        const chunk = await response.text();
        const after = Number(response.headers.get('X-Allot-Log-Offset'));
        if (stopped) return;
        offset.current = Number.isFinite(after) ? after : offset.current + chunk.length;
        setError('');
        if (chunk) setText((old) => (old + chunk).slice(-KEEP));
      } catch (failure) {
        if (!stopped) setError(failure.message);
      }
    };
    poll();
    const timer = setInterval(poll, LIVE_INTERVAL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [ns, name, pod]);
  return (
    <section aria-labelledby="logs-title">
      <h2 id="logs-title">Logs of pod {pod}</h2>
      {error ? <p class="hint">{error}</p> : null}
      <pre class="logs" tabIndex={0} aria-label={`Log of pod ${pod}`}>
        {text || 'No output yet.'}
      </pre>
    </section>
  );
}
