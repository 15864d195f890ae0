// First, before React and the app's modules are evaluated: the session, the opened page's chunk and
// its data are asked for (a module evaluates in import order).
import './app/early-start';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { config } from 'zod';
import { App } from './app/app';
import './styles/base.css';
import './styles/controls.css';
import './styles/overlays.css';
import './styles/features.css';
import './styles/editors.css';
import './styles/settings.css';

// The UI is served under a Content-Security-Policy without 'unsafe-eval'. Zod probes `Function('')`
// to decide whether to compile its parsers, and the blocked probe is reported as a CSP violation.
config({ jitless: true });

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
