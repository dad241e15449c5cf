// The floor of the web benchmarks (bench/web-weight.ts, bench/lighthouse.ts): Vite's React
// starter reduced to a heading, a paragraph and a counter.
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

function App() {
  const [count, setCount] = useState(0);
  return (
    <main
      style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '0 auto', padding: 24 }}
    >
      <h1>Vite + React</h1>
      <p>
        A minimal page built by the same Vite in the same run, served by the same server code: what
        any React page costs before it does anything of its own.
      </p>
      <button type="button" onClick={() => setCount((value) => value + 1)}>
        count is {count}
      </button>
    </main>
  );
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
